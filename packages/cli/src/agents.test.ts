import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import { SAMPLES_HOME } from './default-homes.js';
import type { SessionsJson, StatsJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
const codexFixtures = resolve(here, '../../core/test/fixtures/codex');

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-agents-'));
  // A home with both agents: Claude Code's samples in ~/.claude, Codex rollouts in ~/.codex/sessions.
  home = join(dir, 'home');
  cpSync(SAMPLES_HOME, join(home, '.claude'), { recursive: true });
  mkdirSync(join(home, '.codex'), { recursive: true });
  cpSync(join(codexFixtures, '0.98.0/codex-home/sessions'), join(home, '.codex/sessions'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) => runCli(args, { home, db: join(dir, 'index.sqlite') });

describe('agents: default homes, the agent of every session, --agent', () => {
  it('reads every agent home by default; each session carries its agent', async () => {
    const r = await cli(['sessions', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { sessions } = JSON.parse(r.stdout) as SessionsJson;
    const agents = new Set(sessions.map((s) => s.agent));
    expect([...agents].sort()).toEqual(['claude', 'codex']);
    const codex = sessions.filter((s) => s.agent === 'codex');
    expect(codex.length).toBe(4);
    expect(codex.every((s) => s.projectPath?.startsWith('/home/user/proj/') === true)).toBe(true);
  });

  it('--agent codex keeps only Codex sessions, in sessions and stats', async () => {
    const sessions = JSON.parse((await cli(['sessions', '--json', '--agent', 'codex'])).stdout) as SessionsJson;
    expect(new Set(sessions.sessions.map((s) => s.agent))).toEqual(new Set(['codex']));
    const stats = JSON.parse((await cli(['stats', '--json', '--agent', 'codex'])).stdout) as StatsJson;
    expect(Object.keys(stats.tools).sort()).toEqual([
      'apply_patch',
      'exec_command',
      'no_such_tool',
      'request_user_input',
    ]);
    const claude = JSON.parse((await cli(['stats', '--json', '--agent', 'claude'])).stdout) as StatsJson;
    expect(Object.keys(claude.tools).includes('apply_patch')).toBe(false);
  });

  it('a PATH may be a Codex home, recognised by its layout', async () => {
    const r = await cli(['sessions', '--json', join(home, '.codex')]);
    const { sessions } = JSON.parse(r.stdout) as SessionsJson;
    expect(sessions.map((s) => s.agent)).toEqual(['codex', 'codex', 'codex', 'codex']);
  });

  it('rejects an unknown agent', async () => {
    const r = await cli(['sessions', '--agent', 'no-such-agent']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--agent must be one of claude, codex, gemini, copilot, qwen, opencode, aider/);
  });
});
