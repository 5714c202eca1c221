import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import type { SessionsJson, StatsJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
const recorded = resolve(here, '../../core/test/fixtures/qwen/0.24.4/qwen-home');

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-qwen-'));
  // A home with only Qwen Code: its recorded sessions in ~/.qwen/projects.
  home = join(dir, 'home');
  cpSync(recorded, join(home, '.qwen'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) => runCli(args, { home, db: join(dir, 'index.sqlite') });

describe('Qwen Code: its default home, --agent qwen', () => {
  it('reads ~/.qwen by default; each session carries agent qwen and its project', async () => {
    const r = await cli(['sessions', '--json', '--agent', 'qwen']);
    expect(r.code, r.stderr).toBe(0);
    const { sessions } = JSON.parse(r.stdout) as SessionsJson;
    expect(sessions.map((s) => [s.agent, s.projectPath]).sort()).toEqual(
      ['api-error', 'files', 'long', 'mcp', 'parallel', 'resume', 'shell'].map((p) => ['qwen', `/home/user/proj/${p}`]),
    );
  });

  it('counts calls per tool and their errors in stats, as the manifest has them', async () => {
    const stats = JSON.parse((await cli(['stats', '--json', '--agent', 'qwen'])).stdout) as StatsJson;
    expect(Object.fromEntries(Object.entries(stats.tools).map(([name, t]) => [name, [t.calls, t.errors]]))).toEqual({
      edit: [2, 1],
      glob: [1, 0],
      grep_search: [1, 0],
      mcp__rec__echo: [1, 0],
      mcp__rec__fail: [1, 1],
      read_file: [13, 1],
      run_shell_command: [31, 2],
      write_file: [1, 0],
    });
  });
});
