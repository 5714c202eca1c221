/**
 * A call whose own file has no result yet while a resumed copy of it in another file already holds one: its fact is
 * paired with the copy's result, and once its own file's result is appended, with that one (`firstResult` prefers
 * the call's own file), as a fresh index pairs it. It kept the copy's: a Task call lasted 26 min 46 s in an index
 * built by appends and 60 s in a fresh one (../shared/wild, pmsynapse-1; found by a review helper).
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { openIndex } from './index.js';

const ORIGINAL = 'aaaaaaaa-0000-4000-8000-000000000001';
const COPY = 'bbbbbbbb-0000-4000-8000-000000000002';
const dir = mkdtempSync(join(tmpdir(), 'agentdash-copy-result-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("pairs a call with its own file's result once it is appended, as a fresh index does", async () => {
  const home = join(dir, 'home');
  const project = join(home, 'projects', '-home-user-proj-demo');
  const lines = (session: string) => {
    const at = basesOf(session);
    return [
      prompt(at('u1', null, 0), 'Run it.'),
      toolUse(at('a1', 'u1', 1), 'msg_1', 'toolu_copy_1', 'Bash', { command: 'make' }),
    ];
  };
  // the original, its result not written yet; a resume copy of it holding a result 58 s later
  writeLines(join(project, `${ORIGINAL}.jsonl`), lines(ORIGINAL));
  writeLines(join(project, `${COPY}.jsonl`), [
    ...lines(COPY),
    toolResult(basesOf(COPY)('r1', 'a1', 59), 'toolu_copy_1', 'built', false),
  ]);
  const grown = openIndex({ dbPath: join(dir, 'grown.sqlite') });
  await grown.refresh([home]);
  const duration = (index: ReturnType<typeof openIndex>) =>
    index.calls({ limit: 10 }).map((c) => [c.sessionId, c.callId, c.durationMs]);
  expect(duration(grown)).toEqual([[ORIGINAL, 'toolu_copy_1', 58_000]]);
  // its own result, 2 s after the call
  appendFileSync(
    join(project, `${ORIGINAL}.jsonl`),
    `${toolResult(basesOf(ORIGINAL)('r1', 'a1', 3), 'toolu_copy_1', 'built', false)}\n`,
  );
  await grown.refresh([home]);
  const fresh = openIndex({ dbPath: join(dir, 'fresh.sqlite') });
  await fresh.refresh([home]);
  expect(duration(fresh)).toEqual([[ORIGINAL, 'toolu_copy_1', 2_000]]);
  expect(duration(grown)).toEqual(duration(fresh));
  grown.close();
  fresh.close();
});
