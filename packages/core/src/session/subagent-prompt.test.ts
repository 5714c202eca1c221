/**
 * A subagent whose file holds no prompt record (Claude Code 2.0.50: its first user record is a tool result) is
 * asked what its starting call says, not "" (every subagent of the 2.0.50 corpus gave "" in `show --json` and the
 * session header; a review).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDemoHome, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { discoverAll } from '../agents/discover-all.js';
import { groupSessions } from '../io/discover.js';
import { loadSession } from './load-session.js';
import { openSessionStream } from './session-stream.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-subagent-prompt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("takes the starting call's prompt when the subagent's file starts without one", async () => {
  const demo = writeDemoHome(
    dir,
    { outputOnlyWord: 'x', subagentOnlyWord: 'y' },
    'f00dcafe-0000-4000-8000-0000000000b1',
  );
  // the file as 2.0.50 wrote it: the first record the subagent's first response, then a tool result
  const [, first, ...rest] = demo.subLines;
  writeLines(demo.sub, [JSON.stringify({ ...JSON.parse(first ?? '{}'), parentUuid: null }), ...rest]);
  const [group] = groupSessions((await discoverAll([dir])).files);
  const loaded = await loadSession(group!);
  expect(loaded.subagents.map((s) => [s.prompt, s.linkedBy])).toEqual([['Survey the code.', 'agent-id']]);
  // the streamed session says the same
  const stream = await openSessionStream(group!);
  expect(stream.subagents.map((s) => s.prompt)).toEqual(['Survey the code.']);
});
