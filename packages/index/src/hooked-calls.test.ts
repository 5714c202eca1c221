/**
 * The index's facts of calls a PreToolUse hook ran on are the loaded session's (core's `blockedByHook`): the blocked
 * call `hook-blocked` in `calls` and `stats`, whether its file was read whole (the parse worker's fact) or appended
 * to, its hook's record and result arriving after its call was stored (the fact computed again at the commit).
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOOKED_CATEGORIES, hookedShellCalls, writeLines } from '@agentdash/testing/synthetic';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const SESSION = 'f00dcafe-0000-4000-8000-0000000000c8';
let dir: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-hooked-index-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const file = () => join(dir, 'home', 'projects', '-home-user-proj-demo', `${SESSION}.jsonl`);
const stored = () =>
  index
    .calls({})
    .map((c) => [c.callId, c.category ?? undefined, c.exitCode ?? undefined])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
const expected = [...HOOKED_CATEGORIES].sort((a, b) => a[0].localeCompare(b[0]));

it("stores a hook's block as the loaded session says it, the file read whole", async () => {
  writeLines(file(), hookedShellCalls(SESSION));
  await index.refresh([join(dir, 'home')]);
  expect(stored()).toEqual(expected);
  const loaded = await index.loadSession(SESSION);
  expect(loaded.calls.map((c) => c.result?.error?.category)).toEqual(HOOKED_CATEGORIES.map((c) => c[1]));
  expect(index.stats().tools.Bash?.categories).toEqual({ 'hook-blocked': 1, 'exit-code': 2 });
});

it('and appended to: the call first, its hook and result after', async () => {
  const lines = hookedShellCalls(SESSION);
  writeLines(file(), lines.slice(0, 2));
  await index.refresh([join(dir, 'home')]);
  appendFileSync(file(), `${lines.slice(2, 3).join('\n')}\n`);
  await index.refresh([join(dir, 'home')]);
  appendFileSync(file(), `${lines.slice(3).join('\n')}\n`);
  await index.refresh([join(dir, 'home')]);
  expect(stored()).toEqual(expected);
});

it('forgets a hook whose record is gone when the file is read again from its start', async () => {
  const lines = hookedShellCalls(SESSION);
  writeLines(file(), lines);
  await index.refresh([join(dir, 'home')]);
  expect(stored()[0]).toEqual(['toolu_blocked', 'hook-blocked', undefined]);
  // rewritten in place, the blocked call's hook record gone (another call's hook there)
  writeLines(file(), [
    ...lines.slice(0, 2),
    lines[2]!.replace('"toolu_blocked"', '"toolu_blocked_x"'),
    ...lines.slice(3),
  ]);
  await index.refresh([join(dir, 'home')]);
  const loaded = await index.loadSession(SESSION);
  expect(loaded.calls[0]?.result?.error?.category).toBe('exit-code');
  expect(stored()[0]).toEqual(['toolu_blocked', 'exit-code', undefined]);
});
