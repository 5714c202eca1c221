/**
 * A full-tier session whose distinct words pass what one `tsvector` holds (1 MB): its words are stored in parts, and
 * search still finds a document's words in any part, and only when one document holds them all (as the laptop does).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { chunksOf, fullSession, sessionsBody, uidOf } from './wire.js';

const LINES = 12;
const WORDS = 12_000;
const word = (line: number, i: number) => `zq${line.toString(36)}w${i.toString(36).padStart(4, '0')}`;

pgSuite('team search over a session with more than 1 MB of distinct words', () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
    const lines = Array.from({ length: LINES }, (_, line) =>
      JSON.stringify({
        type: 'user',
        message: { role: 'user', content: Array.from({ length: WORDS }, (_, i) => word(line, i)).join(' ') },
        uuid: `00000000-0000-4000-8000-${String(line).padStart(12, '0')}`,
        timestamp: `2026-03-08T10:00:${String(line).padStart(2, '0')}.000Z`,
        sessionId: '5ec7e75a-0000-4000-8000-00000000b16e',
      }),
    );
    const chunks = chunksOf([`${lines.slice(0, LINES / 2).join('\n')}\n`, `${lines.slice(LINES / 2).join('\n')}\n`]);
    for (const c of chunks) {
      await team.request('PUT', `/api/team/v1/push/chunks/${c.sha256}`, undefined, { raw: c.bytes });
    }
    const res = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody([fullSession(7, chunks)]));
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await team?.close();
  });

  const found = async (q: string) =>
    (
      (await team.request('GET', `/api/sessions?q=${encodeURIComponent(q)}`)).json as unknown as {
        sessions: { id: string }[];
      }
    ).sessions.map((s) => s.id);

  it('stores the words in parts and finds words of one document in any part', async () => {
    const [parts] = await team.db.sql<{ n: number }[]>`select count(*)::int as n from search_words`;
    expect(parts?.n).toBeGreaterThan(1);
    const last = LINES - 1;
    expect(await found(word(0, 0))).toEqual([uidOf(7)]);
    expect(await found(`${word(last, 0)} ${word(last, WORDS - 1)}`)).toEqual([uidOf(7)]);
    expect(await found(`${word(last, 5)}*`)).toEqual([uidOf(7)]);
    // two documents' words: no document holds both
    expect(await found(`${word(0, 0)} ${word(last, 0)}`)).toEqual([]);
    expect(await found('zqnosuchword')).toEqual([]);
  });
});
