/**
 * One session in two project folders (the same id: a folder renamed or copied, a session resumed in another folder):
 * their shared calls and responses belong to the newest complete copy. An append that makes the other copy the
 * newest gives them to it, as a fresh index of the same files does; the calls stayed with the copy that owned them
 * before (found by a review helper).
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { openIndex } from './index.js';

const SESSION = 'cccccccc-0000-4000-8000-00000000c0c1';
const dir = mkdtempSync(join(tmpdir(), 'agentdash-copy-owner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('gives the shared calls and responses to the copy an append made newest, as a fresh index does', async () => {
  const home = join(dir, 'home');
  const at = basesOf(SESSION);
  const shared = [
    prompt(at('u1', null, 0), 'Build it.'),
    toolUse(at('a1', 'u1', 1), 'msg_own_1', 'toolu_own_1', 'Bash', { command: 'make' }),
    toolResult(at('r1', 'a1', 2), 'toolu_own_1', 'built', false),
  ];
  const older = join(home, 'projects', '-home-user-proj-old');
  const newer = join(home, 'projects', '-home-user-proj-new');
  writeLines(join(older, `${SESSION}.jsonl`), shared);
  // the other folder's copy goes on a little: it is the newest
  writeLines(join(newer, `${SESSION}.jsonl`), [...shared, assistantText(at('a2', 'r1', 5), 'msg_own_2', 'Done.')]);
  const grown = openIndex({ dbPath: join(dir, 'grown.sqlite') });
  await grown.refresh([home]);
  const owners = (index: ReturnType<typeof openIndex>) => ({
    calls: index.calls({ limit: 10 }).map((c) => [c.callId, c.sessionRef]),
    responses: index
      .listSessions({})
      .map((s) => [s.ref, s.usage.responses])
      .sort(),
  });
  const before = owners(grown);
  expect(before.calls).toEqual([['toolu_own_1', `${SESSION}@-home-user-proj-new`]]);
  // the first folder's copy goes on later still: now it is the newest
  appendFileSync(join(older, `${SESSION}.jsonl`), `${assistantText(at('a3', 'r1', 9), 'msg_own_3', 'Again.')}\n`);
  await grown.refresh([home]);
  const fresh = openIndex({ dbPath: join(dir, 'fresh.sqlite') });
  await fresh.refresh([home]);
  expect(owners(fresh).calls).toEqual([['toolu_own_1', `${SESSION}@-home-user-proj-old`]]);
  expect(owners(grown)).toEqual(owners(fresh));
  grown.close();
  fresh.close();
});
