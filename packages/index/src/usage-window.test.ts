/**
 * A response a resumed session copies counts once, for the session that owns it (the one that started first), at
 * the time it has there. Usage over a window of time picked the copies in the window first, then the owner among
 * them: a response answered at 10:00 and copied at 10:30 counted in 10:30–10:45 (a review helper: bob's 18:30–18:45
 * said 40 responses on the laptop, 28 on the team server, and 18:00–18:45 58, not 30 + 40).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, prompt, type RecordBase, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const FIRST = 'a1b2c3d4-0000-4000-8000-00000000f125';
const RESUMED = 'a1b2c3d4-0000-4000-8000-00000000f169';

let dir: string;
let index: AgentIndex;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-usage-window-'));
  const at = (sessionId: string, uuid: string, parent: string | null, time: string): RecordBase => ({
    sessionId,
    uuid,
    parentUuid: parent,
    timestamp: `2026-01-02T${time}.000Z`,
  });
  const folder = join(dir, 'home', 'projects', '-home-user-proj-demo');
  writeLines(join(folder, `${FIRST}.jsonl`), [
    prompt(at(FIRST, 'f-u1', null, '10:00:00'), 'Start'),
    assistantText(at(FIRST, 'f-a1', 'f-u1', '10:00:05'), 'msg_first_1', 'Started.'),
  ]);
  // resumed at 10:30: the conversation so far copied in, stamped anew, then its own prompt and answer
  writeLines(join(folder, `${RESUMED}.jsonl`), [
    prompt(at(RESUMED, 'f-u1', null, '10:30:00'), 'Start'),
    assistantText(at(RESUMED, 'f-a1', 'f-u1', '10:30:01'), 'msg_first_1', 'Started.'),
    prompt(at(RESUMED, 'r-u2', 'f-a1', '10:30:02'), 'Go on'),
    assistantText(at(RESUMED, 'r-a2', 'r-u2', '10:30:05'), 'msg_resumed_2', 'Went on.'),
  ]);
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  await index.refresh([join(dir, 'home')]);
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The message ids of the responses usage counts between two times of the day. */
const counted = (since: string, until: string) =>
  index
    .usageResponses({ since: `2026-01-02T${since}:00.000Z`, until: `2026-01-02T${until}:00.000Z` })
    .map((r) => [r.messageId, r.context.sessionId]);

it('counts a copied response in the window of its owner’s time, never of its copy’s', () => {
  expect(counted('10:00', '11:00')).toEqual([
    ['msg_first_1', FIRST],
    ['msg_resumed_2', RESUMED],
  ]);
  expect(counted('10:00', '10:15')).toEqual([['msg_first_1', FIRST]]);
  expect(counted('10:30', '10:45')).toEqual([['msg_resumed_2', RESUMED]]);
});

it('counts so in a window of many responses too (their copies read in one pass, not looked up one by one)', async () => {
  const many = join(dir, 'many');
  const first = 'b1b2c3d4-0000-4000-8000-00000000f125';
  const resumed = 'b1b2c3d4-0000-4000-8000-00000000f169';
  const at = (sessionId: string, uuid: string, parent: string | null, ms: number): RecordBase => ({
    sessionId,
    uuid,
    parentUuid: parent,
    timestamp: new Date(Date.UTC(2026, 0, 3, 8) + ms).toISOString(),
  });
  // 2,100 answers from 08:00 (one a second), all copied into the session resumed at 12:00, which answers once more
  const turns = Array.from({ length: 2100 }, (_, i) => i);
  const answers = (sessionId: string, from: number) =>
    turns.map((i) => assistantText(at(sessionId, `m-a${i}`, null, from + i * 1000), `msg_many_${i}`, `Answer ${i}.`));
  const folder = join(many, 'projects', '-home-user-proj-many');
  writeLines(join(folder, `${first}.jsonl`), [prompt(at(first, 'm-u0', null, 0), 'Go'), ...answers(first, 1000)]);
  const noon = 4 * 3600_000;
  writeLines(join(folder, `${resumed}.jsonl`), [
    prompt(at(resumed, 'm-u0', null, noon), 'Go'),
    ...answers(resumed, noon + 1),
    assistantText(at(resumed, 'r-last', null, noon + 3600_000), 'msg_many_own', 'Done.'),
  ]);
  await index.refresh([many]);
  const ids = (since: string, until: string) =>
    index
      .usageResponses({ since: `2026-01-03T${since}:00.000Z`, until: `2026-01-03T${until}:00.000Z`, paths: [many] })
      .map((r) => r.messageId);
  expect(ids('12:00', '14:00')).toEqual(['msg_many_own']);
  expect(ids('08:00', '09:00')).toHaveLength(2100);
});
