import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import type { SessionsJson, StatsJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
const recorded = resolve(here, '../../core/test/fixtures/opencode/1.18.33/opencode-home');

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-opencode-'));
  // A home with only OpenCode: its recorded database in ~/.local/share/opencode.
  home = join(dir, 'home');
  cpSync(recorded, join(home, '.local/share/opencode'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) => runCli(args, { home, db: join(dir, 'index.sqlite') });

describe('OpenCode: its default home, --agent opencode', () => {
  it('reads ~/.local/share/opencode by default; each session carries agent opencode and its project', async () => {
    const r = await cli(['sessions', '--json', '--agent', 'opencode']);
    expect(r.code, r.stderr).toBe(0);
    const { sessions } = JSON.parse(r.stdout) as SessionsJson;
    expect(sessions.map((s) => [s.agent, s.projectPath]).sort()).toEqual(
      ['api-error', 'files', 'long', 'mcp', 'parallel', 'resume', 'shell', 'subagent'].map((p) => [
        'opencode',
        `/home/user/proj/${p}`,
      ]),
    );
  });

  it('counts calls per tool and their errors in stats, as the manifest has them', async () => {
    const stats = JSON.parse((await cli(['stats', '--json', '--agent', 'opencode'])).stdout) as StatsJson;
    expect(Object.fromEntries(Object.entries(stats.tools).map(([name, t]) => [name, [t.calls, t.errors]]))).toEqual({
      bash: [83, 2],
      edit: [2, 1],
      glob: [1, 0],
      grep: [1, 0],
      read: [31, 1],
      rec_echo: [1, 0],
      rec_fail: [1, 1],
      task: [1, 0],
      write: [1, 0],
    });
  });
});
