import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot } from '../../../test/helpers.js';
import { discoverAll } from '../../agents/discover-all.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';
import type { Session } from '../../model/session.js';
import { summarizeCall } from '../../present/summarize-call.js';
import { parseCodexOutput } from './output.js';

/** The shell scenario of each corpus client: exit codes 1, 3, 127, a large output and interactive `write_stdin`. */
const corpus = resolve(repoRoot, '../shared/corpus-agents/codex');
const shellRollouts = {
  '0.169.0': 'rollout-2026-11-23T00-56-42-01a205e7-bb04-77b3-b0ef-762f3438ba3c.jsonl',
  '0.98.0': 'rollout-2026-11-23T00-58-34-01a205e9-7215-7200-aa11-0839c0abf80f.jsonl',
  '0.50.0': 'rollout-2026-11-23T01-06-48-01a205f0-facf-72d3-88bb-39624e2e0b16.jsonl',
} as const;
const fileOf = (version: keyof typeof shellRollouts) =>
  join(corpus, version, 'codex-home/sessions/2026/11/23', shellRollouts[version]);

async function sessionOf(file: string): Promise<Session> {
  const { files } = await discoverAll([file]);
  const [group] = groupSessions(files);
  if (group === undefined) throw new Error(`no session in ${file}`);
  return loadSession(group);
}

/** The interactive part of the scenario as the CLI's `show` lists it: which call carries which exit. */
async function interactiveCalls(version: keyof typeof shellRollouts): Promise<string[]> {
  const session = await sessionOf(fileOf(version));
  const from = session.calls.findIndex((c) => JSON.stringify(c.input).includes('tick'));
  return session.calls.slice(from).map((c) => summarizeCall(c));
}

describe('a Codex command still running when its call returned', () => {
  test('its output names the session, and no exit code', () => {
    const out = parseCodexOutput(
      'Chunk ID: ada890\nWall time: 0.5005 seconds\nProcess running with session ID 68693\nOriginal token count: 2\nOutput:\ntick 1\n',
    );
    expect(out).toMatchObject({ content: 'tick 1\n', exitCode: undefined, runningSessionId: '68693' });
  });

  // Before: `→ ok` (and `exit 0` in the dashboard) for the two calls whose process was still running.
  test.skipIf(!existsSync(fileOf('0.169.0')))(
    '0.169: running until the write_stdin that reports its exit',
    async () => {
      expect(await interactiveCalls('0.169.0')).toEqual([
        'exec_command for i in 1 2 3; do echo tick $i; sleep 1; done; echo ticks-… → running (session 68693)',
        'write_stdin #68693 → exit 0',
        'write_stdin #99999 → not-running',
        'exec_command cat → running (session 13883)',
        'write_stdin #13883 → exit 0',
      ]);
    },
  );

  test.skipIf(!existsSync(fileOf('0.98.0')))('0.98: the same', async () => {
    expect(await interactiveCalls('0.98.0')).toEqual([
      'exec_command for i in 1 2 3; do echo tick $i; sleep 1; done; echo ticks-… → running (session 44923)',
      'write_stdin #44923 → exit 0',
      'write_stdin #99999 → not-running',
      'exec_command cat → running (session 54334)',
      'write_stdin #54334 → exit 0',
    ]);
  });

  test.skipIf(!existsSync(fileOf('0.50.0')))(
    '0.50: every shell call carries its exit code (JSON metadata)',
    async () => {
      const session = await sessionOf(fileOf('0.50.0'));
      const typed = session.calls.map((c) => c.result?.typed);
      const shells = typed.filter((t) => t?.kind === 'bash');
      expect(shells.length).toBeGreaterThan(5);
      expect(shells.filter((t) => t.data.exitCode === undefined || t.data.runningSessionId !== undefined)).toEqual([]);
    },
  );
});
