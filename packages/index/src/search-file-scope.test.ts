/**
 * A search over one transcript file (`agentdash search WORD session.jsonl`): the sessions list takes a file as its
 * whole session, subagents included, but search kept only the hits of that file (a review helper: 6 hits, none
 * from the session's subagents, where its folder gave 9).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nextSessionId, writeDemoHome } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { openIndex } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-search-file-'));
const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

it("searches a session's subagents when its main file is named, and no other session", async () => {
  const words = { outputOnlyWord: 'mainonlyquartz', subagentOnlyWord: 'subagentonlyquartz' };
  const one = writeDemoHome(join(dir, 'one'), words, nextSessionId());
  const other = writeDemoHome(join(dir, 'two'), words, nextSessionId());
  await index.refresh([join(dir, 'one'), join(dir, 'two')]);
  const sessionsOf = async (query: string, paths: string[]) => [
    ...new Set((await index.search(query, { paths })).map((h) => h.sessionId)),
  ];
  const fromMain = await sessionsOf('subagentonlyquartz', [one.main]);
  expect(fromMain).toHaveLength(1);
  expect((await index.search('subagentonlyquartz', { paths: [one.main] }))[0]?.agentId).toBeDefined();
  expect(await sessionsOf('subagentonlyquartz', [other.main])).not.toEqual(fromMain);
  expect(await sessionsOf('subagentonlyquartz', [join(dir, 'one'), join(dir, 'two')])).toHaveLength(2);
});
