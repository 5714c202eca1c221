/**
 * A search in the team's sessions list cuts only the sessions of the page it shows: a query of plain words finds
 * its sessions (and their count) from the words' positions in PostgreSQL, and only the rows shown are read back
 * from their chunks for their snippets. Counted in sessions read, not in time.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { searchReads } from '../src/pg/search.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { chunksOf, fullSession, metadataSession, promptsTranscript, sessionsBody, uidOf } from './wire.js';

const SESSIONS = 24;

interface ListBody {
  readonly total: number;
  readonly sessions: { id: string; snippet?: string; matchCallId?: string }[];
}

pgSuite('team search list: only the rows shown are cut', () => {
  let team: TeamFixture;
  const list = async (q: string, query = '') => {
    const before = searchReads.sessions;
    const res = await team.request('GET', `/api/sessions?q=${encodeURIComponent(q)}${query}`);
    expect(res.status).toBe(200);
    return { body: res.json as unknown as ListBody, read: searchReads.sessions - before };
  };

  beforeAll(async () => {
    team = await startTeam();
    // every session holds zqeach; session n holds zqmost in n prompts (the last, most), zqodd only the odd ones
    const sessions = [];
    for (let n = 1; n <= SESSIONS; n += 1) {
      const texts = [
        'zqeach word in every session',
        ...Array.from({ length: n }, (_, i) => `zqmost prompt ${i}`),
        ...(n % 2 === 1 ? ['zqodd and zqeach together'] : []),
      ];
      const chunks = chunksOf([promptsTranscript(n, texts)]);
      for (const c of chunks) {
        await team.request('PUT', `/api/team/v1/push/chunks/${c.sha256}`, undefined, { raw: c.bytes });
      }
      sessions.push(fullSession(n, chunks));
    }
    // a metadata-tier session whose title holds the words: found from its title, as before
    sessions.push(metadataSession(100, 'zqeach zqodd in a title'));
    const res = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody(sessions));
    expect(res.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await team?.close();
  });

  it('finds every session of a one-word query and cuts only the page', async () => {
    const { body, read } = await list('zqeach', '&limit=3');
    expect(body.total).toBe(SESSIONS + 1);
    expect(body.sessions).toHaveLength(3);
    expect(read).toBe(3);
    for (const row of body.sessions) expect(row.snippet).toContain('\u0001zqeach\u0002');
    const last = await list('zqeach', `&limit=3&offset=${SESSIONS - 1}`);
    expect(last.body.sessions).toHaveLength(2);
    expect(last.read).toBe(2);
    for (const row of last.body.sessions) expect(row.snippet).toContain('\u0001zqeach\u0002');
  });

  it('ranks sessions by their documents holding every word, still cutting only the page', async () => {
    const { body, read } = await list('zqmost', '&limit=2');
    expect(body.total).toBe(SESSIONS);
    expect(body.sessions.map((r) => r.id)).toEqual([uidOf(SESSIONS), uidOf(SESSIONS - 1)]);
    expect(read).toBe(2);
  });

  it('two words: the sessions with one document holding both, from positions', async () => {
    const { body, read } = await list('zqodd zqeach', '&limit=5');
    const odd = Array.from({ length: SESSIONS / 2 }, (_, i) => uidOf(2 * i + 1));
    expect(body.total).toBe(odd.length + 1);
    expect(read).toBeLessThanOrEqual(5);
    // the same sessions as a search that cuts every candidate (a phrase query is not plain words)
    const all = await list('zqodd zqeach', '&limit=100');
    expect(all.body.sessions.map((r) => r.id).sort()).toEqual([...odd, uidOf(100)].sort());
    // no document holds zqodd and zqmost: none found, none cut
    const none = await list('zqodd zqmost');
    expect([none.body.total, none.read]).toEqual([0, 0]);
  });

  it('a phrase is still checked in the documents (every candidate cut)', async () => {
    const { body, read } = await list('"zqodd and zqeach"', '&limit=2');
    expect(body.total).toBe(SESSIONS / 2);
    expect(read).toBe(SESSIONS / 2);
  });
});
