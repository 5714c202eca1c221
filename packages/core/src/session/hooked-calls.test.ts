/**
 * A shell call a PreToolUse hook blocked (Claude Code 2.1.39, a wild session: its stderr the error result, no
 * `Exit code N` line, the hook's `hook_progress` records before it) is `hook-blocked`, not the command's exit; a call
 * whose hook passed and whose command failed keeps its exit, and so does one after a PostToolUse hook.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOOKED_CATEGORIES, hookedShellCalls, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { discoverAll } from '../agents/discover-all.js';
import { groupSessions } from '../io/discover.js';
import type { ToolCall } from '../model/tool-call.js';
import { loadSession } from './load-session.js';
import { openSessionStream } from './session-stream.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-hooked-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SESSION = 'f00dcafe-0000-4000-8000-0000000000c7';
const categories = (calls: readonly ToolCall[]) =>
  calls.map((c) => [c.id, c.result?.error?.category, c.result?.error?.exitCode]);

it("calls a shell failure after a PreToolUse hook, with no exit of the client's, the hook's block", async () => {
  writeLines(join(dir, 'projects', '-home-user-proj-demo', `${SESSION}.jsonl`), hookedShellCalls(SESSION));
  const [group] = groupSessions((await discoverAll([dir])).files);
  const loaded = await loadSession(group!);
  expect(categories(loaded.calls)).toEqual(HOOKED_CATEGORIES);
  expect(loaded.calls[0]?.result?.error?.severity).toBe('error');
  // the streamed session says the same
  const stream = await openSessionStream(group!);
  const streamed: ToolCall[] = [];
  for await (const call of stream.calls()) streamed.push(call);
  expect(categories(streamed)).toEqual(HOOKED_CATEGORIES);
});
