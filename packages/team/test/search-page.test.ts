/**
 * A search in the team's sessions list cuts only the sessions of the page it shows: a query of plain words finds
 * its sessions (and their count) from the words' positions in PostgreSQL, and only the rows shown are read back
 * from their chunks for their snippets; a phrase lists the sessions with a document holding all its words and the
 * page's cut decides each. Counted in sessions read and chunks decompressed, not in time.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { searchReads } from '../src/pg/search.js';
import { chunkReads } from '../src/pg/transcripts.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { chunksOf, fullSession, metadataSession, promptsTranscript, sessionsBody, uidOf } from './wire.js';

const SESSIONS = 24;
/** Sessions of the phrase test (numbers from 201): the first half hold the phrase, the others its words apart. */
const PHRASED = 20;

interface ListBody {
  readonly total: number;
  readonly sessions: { id: string; snippet?: string; matchCallId?: string }[];
}

pgSuite('team search list: only the rows shown are cut', () => {
  let team: TeamFixture;
  const list = async (q: string, query = '') => {
    const before = { sessions: searchReads.sessions, chunks: chunkReads.chunks };
    const res = await team.request('GET', `/api/sessions?q=${encodeURIComponent(q)}${query}`);
    expect(res.status).toBe(200);
    return {
      body: res.json as unknown as ListBody,
      read: searchReads.sessions - before.sessions,
      chunks: chunkReads.chunks - before.chunks,
    };
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
    // sessions 201-210 say "zqalpha zqbeta" in two documents; 211-220 hold both words in one, never side by side
    for (let n = 201; n <= 200 + PHRASED; n += 1) {
      const texts =
        n <= 200 + PHRASED / 2
          ? ['zqalpha zqbeta first', 'then zqalpha zqbeta again']
          : ['zqbeta before zqalpha', 'zqalpha alone'];
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

  it('a phrase lists the sessions whose documents hold its words, and the page decides them', async () => {
    const { body, read } = await list('"zqodd and zqeach"', '&limit=2');
    expect(body.total).toBe(SESSIONS / 2);
    expect(body.sessions).toHaveLength(2);
    expect(read).toBe(2);
    for (const row of body.sessions) expect(row.snippet).toContain('\u0001zqodd and zqeach\u0002');
  });

  it("a row's cut fetches its transcript's chunks only as far as its first hit", async () => {
    // a transcript of three chunks over 1 MiB each (more than a read asks at once), the hit in its first document
    const filler = Array.from({ length: 12_000 }, (_, i) => `filler prompt ${i} ${'x'.repeat(80)}`);
    const text = promptsTranscript(301, ['zqchunked in the first prompt', ...filler]);
    const lines = text.split('\n');
    const third = Math.ceil(lines.length / 3);
    const pieces = [0, 1, 2].map((k) => `${lines.slice(k * third, (k + 1) * third).join('\n')}${k < 2 ? '\n' : ''}`);
    const chunks = chunksOf(pieces);
    for (const c of chunks) {
      expect(c.bytes.length).toBeGreaterThan(0);
      await team.request('PUT', `/api/team/v1/push/chunks/${c.sha256}`, undefined, { raw: c.bytes });
    }
    const res = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody([fullSession(301, chunks)]));
    expect(res.status).toBe(200);
    const before = chunkReads.fetched;
    const { body, chunks: gunzipped } = await list('zqchunked', '&limit=1');
    expect(body.sessions.map((r) => [r.id, r.snippet?.includes('\u0001zqchunked\u0002')])).toEqual([
      [uidOf(301), true],
    ]);
    expect([chunkReads.fetched - before, gunzipped]).toEqual([1, 1]);
  });

  it('a phrase over many sessions decompresses the chunks of the page it returns only', async () => {
    const q = '"zqalpha zqbeta"';
    const holding = Array.from({ length: PHRASED / 2 }, (_, i) => uidOf(201 + i));
    // every session has a document holding both words: all listed (those with two such documents first), none read
    // but the page's
    const first = await list(q, '&limit=3');
    expect(first.body.sessions).toHaveLength(3);
    expect(first.chunks).toBe(3);
    expect(first.body.total).toBe(PHRASED);
    for (const row of first.body.sessions) {
      expect(holding).toContain(row.id);
      expect(row.snippet).toContain('\u0001zqalpha zqbeta\u0002');
    }
    // the page past the sessions holding the phrase reads the others, leaves them out, and the count drops to the
    // sessions holding it
    const rest = await list(q, `&limit=10&offset=3`);
    expect(rest.chunks).toBe(PHRASED - 3);
    const shown = new Set(first.body.sessions.map((r) => r.id));
    expect(rest.body.sessions.map((r) => r.id).sort()).toEqual(holding.filter((id) => !shown.has(id)).sort());
    expect(rest.body.total).toBe(PHRASED / 2);
    // asked again: the same sessions, and only theirs read again (for their snippets), not the ones left out
    const again = await list(q, '&limit=100');
    expect(again.body.sessions.map((r) => r.id).sort()).toEqual([...holding].sort());
    expect([again.body.total, again.chunks]).toEqual([PHRASED / 2, PHRASED / 2]);
  });
});
