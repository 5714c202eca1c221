import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import type { SessionsJson, StatsJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
const recorded = resolve(here, '../../core/test/fixtures/copilot/1.0.102/copilot-home');

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-copilot-'));
  // A home with only Copilot CLI: its recorded sessions in ~/.copilot/session-state.
  home = join(dir, 'home');
  cpSync(recorded, join(home, '.copilot'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) => runCli(args, { home, db: join(dir, 'index.sqlite') });

describe('Copilot CLI: its default home, --agent copilot', () => {
  it('reads ~/.copilot by default; each session carries agent copilot and its project', async () => {
    const r = await cli(['sessions', '--json', '--agent', 'copilot']);
    expect(r.code, r.stderr).toBe(0);
    const { sessions } = JSON.parse(r.stdout) as SessionsJson;
    expect(sessions.map((s) => [s.agent, s.projectPath]).sort()).toEqual(
      ['api-error', 'edit', 'files', 'long', 'mcp', 'parallel', 'resume', 'shell'].map((p) => [
        'copilot',
        `/home/user/proj/${p}`,
      ]),
    );
  });

  it('counts calls per tool and their errors in stats', async () => {
    const stats = JSON.parse((await cli(['stats', '--json', '--agent', 'copilot'])).stdout) as StatsJson;
    expect(Object.fromEntries(Object.entries(stats.tools).map(([name, t]) => [name, [t.calls, t.errors]]))).toEqual({
      bash: [82, 2],
      create: [1, 0],
      edit: [2, 1],
      glob: [1, 0],
      grep: [1, 0],
      'rec-echo': [1, 0],
      'rec-fail': [1, 1],
      view: [30, 1],
    });
  });
});
