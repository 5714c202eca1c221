/**
 * Transcript chunks no session refers to leave PostgreSQL: a sweep takes those older than a day, an erased person's
 * uploads go with them, and a forget running while a session is being stored never deletes a chunk that session now
 * refers to (real PostgreSQL, two transactions at once).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEAM_PAYLOAD_VERSION } from '../src/contract.js';
import { dropUnreferencedChunks, sweepOrphanChunks } from '../src/pg/chunk-gc.js';
import { erase } from '../src/pg/erase.js';
import { addDevice, addPerson } from '../src/pg/people.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { chunksOf, fullSession, sessionsBody, uidOf } from './wire.js';

pgSuite('transcript chunks no session refers to (real PostgreSQL)', () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
  });
  afterAll(async () => {
    await team?.close();
  });

  const put = async (c: { sha256: string; bytes: Buffer }, token = team.token) =>
    expect(
      (await team.request('PUT', `/api/team/v1/push/chunks/${c.sha256}`, undefined, { raw: c.bytes, token })).status,
    ).toBe(200);
  const held = async (names: readonly string[]) =>
    (
      await team.db.sql<
        { sha256: string }[]
      >`select sha256 from chunks where sha256 = any(${names as string[]}::text[])`
    )
      .map((r) => r.sha256)
      .sort();
  const age = (name: string, days: number) =>
    team.db.sql`update chunks set stored_at = now() - ${`${days} days`}::interval where sha256 = ${name}`;

  it('a sweep deletes unreferenced chunks older than a day, and keeps the young and the referenced', async () => {
    const [orphan, young, used] = chunksOf(['{"n":"old orphan"}\n', '{"n":"young orphan"}\n', '{"n":"used"}\n']);
    for (const c of [orphan!, young!, used!]) await put(c);
    const stored = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody([fullSession(1, [used!])]));
    expect(stored.status).toBe(200);
    await age(orphan!.sha256, 2);
    await age(used!.sha256, 2);
    expect(await sweepOrphanChunks(team.db.sql)).toBe(1);
    expect(await held([orphan!.sha256, young!.sha256, used!.sha256])).toEqual([young!.sha256, used!.sha256].sort());
  });

  it('an old unreferenced chunk a push just found stored (chunks/check) is not swept before the push refers to it', async () => {
    const [resumed] = chunksOf(['{"n":"a push resumed days later"}\n']);
    await put(resumed!);
    await age(resumed!.sha256, 3);
    const check = await team.request('POST', '/api/team/v1/push/chunks/check', {
      version: TEAM_PAYLOAD_VERSION,
      chunks: [resumed!.sha256],
    });
    expect(check.json.data).toEqual({ missing: [] });
    expect(await sweepOrphanChunks(team.db.sql)).toBe(0);
    expect(await held([resumed!.sha256])).toEqual([resumed!.sha256]);
  });

  it('erasing a person takes the chunks they uploaded that no session refers to, whatever their age', async () => {
    await addPerson(team.db.sql, 'leaver');
    const { token } = await addDevice(team.db.sql, 'leaver', 'laptop');
    const [theirs] = chunksOf(['{"n":"uploaded, never referred to"}\n']);
    await put(theirs!, token);
    expect(await held([theirs!.sha256])).toEqual([theirs!.sha256]);
    expect((await erase(team.db.sql, 'leaver')).chunks).toBe(1);
    expect(await held([theirs!.sha256])).toEqual([]);
  });

  it('a forget racing a store that now refers to a chunk leaves the chunk', async () => {
    const [shared] = chunksOf(['{"n":"shared by two sessions"}\n']);
    await put(shared!);
    // session 2 refers to it; session 3 will, in a transaction held open below
    expect(
      (await team.request('POST', '/api/team/v1/push/sessions', sessionsBody([fullSession(2, [shared!])]))).status,
    ).toBe(200);
    const [ann] = await team.db.sql<{ id: number }[]>`select id::int from people where name = 'ann'`;
    let release: () => void = () => {};
    const hold = new Promise<void>((r) => (release = r));
    let referred: () => void = () => {};
    const referring = new Promise<void>((r) => (referred = r));
    const store = team.db.sql.begin(async (tx) => {
      // as a session's store does: the chunk locked for key share, then the reference inserted
      await tx`select 1 from chunks where sha256 = ${shared!.sha256} for key share`;
      await tx`insert into sessions (person_id, uid, tier, digest, agent, session_id, project_hash, models, versions,
        tool_calls, errors, has_errors, tokens, body)
        values (${ann!.id}, ${uidOf(3)}, 'full', 'd', 'claude', 's3', 'h', '{}', '{}', 0, 0, false, 0, '{}')`;
      await tx`insert into file_chunks (person_id, uid, sha256) values (${ann!.id}, ${uidOf(3)}, ${shared!.sha256})`;
      referred();
      await hold;
    });
    await referring;
    // session 2 forgotten meanwhile: its forget must wait for the store, then see the new reference
    const forgot = team.db.sql.begin(async (tx) => {
      await tx`delete from sessions where person_id = ${ann!.id} and uid = ${uidOf(2)}`;
      return await dropUnreferencedChunks(tx, [shared!.sha256]);
    });
    await new Promise((r) => setTimeout(r, 200));
    release();
    await store;
    expect(await forgot).toBe(0);
    expect(await held([shared!.sha256])).toEqual([shared!.sha256]);
  });
});
