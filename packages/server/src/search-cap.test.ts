/**
 * A search whose words more sessions match than a search looks at (a review helper: 620 sessions matched, the list
 * said "500 sessions" as if that were all, and filters cut from those 500 only): the answer says where it stopped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, basesOf, nextSessionId, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appOver, type TestApp } from '../test/app-harness.js';
import type { SessionsResponse } from './api-types.js';
import { MAX_SEARCH_SESSIONS } from './sessions-service.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-search-cap-'));
let t: TestApp;
beforeAll(async () => {
  const project = join(dir, 'home', 'projects', '-home-user-proj-many');
  for (let i = 0; i < MAX_SEARCH_SESSIONS + 5; i++) {
    const id = nextSessionId();
    const at = basesOf(id);
    const word = i < 3 ? 'rareword' : 'commonword';
    writeLines(join(project, `${id}.jsonl`), [
      prompt(at('u1', null, 0), `Look for the ${word} number ${i}.`),
      assistantText(at('a1', 'u1', 2), `msg_${i}`, 'Found it.'),
    ]);
  }
  t = await appOver([join(dir, 'home')]);
}, 120_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

it('says it looked at the best 500 sessions when more match', async () => {
  const many = await t.json<SessionsResponse>('/api/sessions?q=commonword&limit=10');
  expect(many.total).toBe(MAX_SEARCH_SESSIONS);
  expect(many.searchCap).toBe(MAX_SEARCH_SESSIONS);
  const few = await t.json<SessionsResponse>('/api/sessions?q=rareword&limit=10');
  expect(few.total).toBe(3);
  expect(few.searchCap).toBeUndefined();
});

it('cuts a query over 500 characters after its last whole word, and takes a blank one as none', async () => {
  // 56 words, 503 characters: cut at 500 in the middle of the last word, it matched nothing
  const long = encodeURIComponent(Array(56).fill('rareword').join(' '));
  const cut = await t.json<SessionsResponse>(`/api/sessions?q=${long}&limit=10`);
  expect(cut.total).toBe(3);
  const blank = await t.json<SessionsResponse>('/api/sessions?q=%20%20%20&limit=1');
  expect(blank.total).toBe(MAX_SEARCH_SESSIONS + 5);
});
