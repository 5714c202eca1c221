/**
 * Team search weighs full-tier sessions by the documents holding every word (each word's positions in
 * `search_words`) before cutting any: a search that stops at its limit has the sessions with the most such documents,
 * not the most recent ones; a word in more documents than a `tsvector` keeps positions for is still found.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { teamSearch } from '../src/pg/search.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { chunksOf, fullSession, sessionsBody, promptsTranscript as transcript, uidOf } from './wire.js';

pgSuite('team search: the best sessions before the limit', () => {
  let team: TeamFixture;
  const pushFull = async (n: number, texts: readonly string[]) => {
    const chunks = chunksOf([transcript(n, texts)]);
    for (const c of chunks) {
      await team.request('PUT', `/api/team/v1/push/chunks/${c.sha256}`, undefined, { raw: c.bytes });
    }
    const res = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody([fullSession(n, chunks)]));
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    team = await startTeam();
    // session 1 is the oldest and holds the word in 30 prompts; sessions 2-8, each newer, in one prompt
    await pushFull(
      1,
      Array.from({ length: 30 }, (_, i) => `zqbest prompt ${i}`),
    );
    for (let n = 2; n <= 8; n += 1) await pushFull(n, [`zqbest once in session ${n}`, 'and nothing else here']);
    // session 9: a word in more prompts than a tsvector keeps positions for, and a rare word in the last of them
    await pushFull(9, [...Array.from({ length: 299 }, (_, i) => `zqmany ${i}`), 'zqmany zqrare at last']);
  }, 120_000);
  afterAll(async () => {
    await team?.close();
  });

  const sessionsOf = async (q: string, limit: number) =>
    (await teamSearch(team.db.sql, q, { limit, onePerSession: true })).map((h) => h.sessionId);

  it('a search cut at its limit has the session holding the word in the most documents', async () => {
    expect(await sessionsOf('zqbest', 1)).toEqual([uidOf(1)]);
    // without a limit, every session holding the word
    expect((await sessionsOf('zqbest', 50)).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map(uidOf).sort());
  });

  it('a word in more documents than positions are kept is found, with or beside a rare word', async () => {
    expect(await sessionsOf('zqmany', 5)).toEqual([uidOf(9)]);
    expect(await sessionsOf('zqmany zqrare', 5)).toEqual([uidOf(9)]);
    expect(await sessionsOf('"zqmany zqrare"', 5)).toEqual([uidOf(9)]);
    const [hit] = await teamSearch(team.db.sql, 'zqrare', { limit: 5 });
    expect(hit?.snippet).toBe('zqmany \u0001zqrare\u0002 at last');
    // two words no one document holds
    expect(await sessionsOf('zqbest zqrare', 5)).toEqual([]);
  });
});
