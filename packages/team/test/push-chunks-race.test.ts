/**
 * Chunks of refused sessions dropped at once, and while another push is under way (real PostgreSQL, real HTTP). Each
 * race is interleaved from the test: it holds a lock the pushes wait on, and goes on once PostgreSQL shows them
 * waiting there.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dropUnreferencedChunks } from '../src/pg/chunk-gc.js';
import { uidLockKey } from '../src/pg/forgotten.js';
import { addDevice, addPerson } from '../src/pg/people.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { chunksOf, fullSession, metadataSession, promptsTranscript, uidOf } from './wire.js';

pgSuite('chunks dropped at once while another push is under way (real PostgreSQL)', () => {
  let team: TeamFixture;
  let bob: string;

  beforeAll(async () => {
    team = await startTeam();
    await addPerson(team.db.sql, 'bob');
    ({ token: bob } = await addDevice(team.db.sql, 'bob', 'laptop'));
  });
  afterAll(async () => {
    await team?.close();
  });

  /** Waits until `count` backends wait on a lock in a statement holding `text` (PostgreSQL's own view of them). */
  const waiting = async (text: string, count = 1) => {
    for (;;) {
      // this file's database only: another file's backends wait on locks of the same server
      const [row] = await team.db.sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and position(${text} in query) > 0`;
      if ((row?.n ?? 0) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const upload = (chunk: { sha256: string; bytes: Buffer }, token?: string) =>
    team.request('PUT', `/api/team/v1/push/chunks/${chunk.sha256}`, undefined, { raw: chunk.bytes, token });
  /** The chunks on the server, and those of them no stored session refers to. */
  const chunks = async () => {
    const [row] = await team.db.sql<{ all: number; orphans: number }[]>`
      select count(*)::int as all,
        count(*) filter (where not exists (select 1 from file_chunks f where f.sha256 = c.sha256))::int as orphans
      from chunks c`;
    return row;
  };
  /** File references whose chunk is not stored: a hole in a transcript. */
  const holes = async () =>
    (
      await team.db.sql<{ n: number }[]>`select count(*)::int as n from file_chunks f
        where not exists (select 1 from chunks c where c.sha256 = f.sha256)`
    )[0]?.n;
  const clear = async () => {
    await team.db.sql`delete from sessions`;
    await team.db.sql`delete from chunks`;
  };

  it("two people's pushes of one uid at once: the refused one's chunk leaves with its answer", async () => {
    // the same uid (a copied home's transcript pushed with the owner's salt), different chunks
    const [annChunk] = chunksOf([promptsTranscript(1, ["ann's copy of the session"])]);
    const [bobChunk] = chunksOf([promptsTranscript(1, ["bob's copy of the session"])]);
    if (!annChunk || !bobChunk) throw new Error('no chunk');
    expect((await upload(annChunk)).status).toBe(200);
    expect((await upload(bobChunk, bob)).status).toBe(200);
    const ann = fullSession(1, [annChunk]);
    const bobs = fullSession(1, [bobChunk]);
    // both stores wait on the uid's lock, held here, so neither reads the other's session before it is let go
    const answers = await team.db.sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtextextended(${uidLockKey(uidOf(1))}, 0))`;
      const sent = [team.pushSessions([ann]), team.pushSessions([bobs], { token: bob })];
      await waiting('unnest', 2);
      return sent;
    });
    const [a, b] = await Promise.all(answers);
    const refused = [a, b].filter((r) => (r?.json.data as { refused?: unknown[] } | undefined)?.refused?.length === 1);
    expect(refused).toHaveLength(1);
    expect(await team.db.sql`select uid from sessions`).toHaveLength(1);
    // the stored one's chunk only; the refused one's left with its answer, not for the sweep a day later
    expect(await chunks()).toEqual({ all: 1, orphans: 0 });
    await clear();
  });

  it('sessions of one request refused together: a chunk they share leaves with the answer', async () => {
    // two sessions ann holds, pushed by bob at the full tier naming one chunk (a transcript copied into both)
    const [shared] = chunksOf([promptsTranscript(4, ['a transcript copied into two sessions'])]);
    const [own] = chunksOf([promptsTranscript(6, ["bob's own session"])]);
    if (!shared || !own) throw new Error('no chunk');
    expect((await team.pushSessions([metadataSession(4), metadataSession(5)])).json.data).toMatchObject({ stored: 2 });
    expect((await upload(shared, bob)).status).toBe(200);
    expect((await upload(own, bob)).status).toBe(200);
    const answer = await team.pushSessions(
      [fullSession(4, [shared]), fullSession(5, [shared]), fullSession(6, [own])],
      {
        token: bob,
      },
    );
    const data = answer.json.data as { stored: number; refused: { uid: string }[] };
    expect(data.stored).toBe(1);
    expect(data.refused.map((r) => r.uid).sort()).toEqual([uidOf(4), uidOf(5)].sort());
    // bob's own session's chunk only. Before: the shared chunk too ({all: 2, orphans: 1}), each refused session
    // keeping it for the other, left to the sweep a day later
    expect(await chunks()).toEqual({ all: 1, orphans: 0 });
    await clear();
  });

  it("a chunk dropped while the session's words are cut: the push is told to send it again", async () => {
    // a chunk on the server that no session refers to (another person's push uploaded it, its session refused);
    // ann's push found it at its check and did not send it
    const [chunk] = chunksOf([promptsTranscript(2, ['a transcript two people pushed'])]);
    if (!chunk) throw new Error('no chunk');
    expect((await upload(chunk, bob)).status).toBe(200);
    const session = fullSession(2, [chunk]);
    // ann's batch waits on its digests' read, after its chunks were found stored and before its words are cut;
    // meanwhile the refused session's chunks are dropped (what its refusal runs), and committed
    const answer = await team.db.sql.begin(async (tx) => {
      await tx`lock table sessions in access exclusive mode`;
      const sent = team.pushSessions([session]);
      await waiting('select uid, digest from sessions');
      expect(await dropUnreferencedChunks(tx, [chunk.sha256])).toBe(1);
      return [sent];
    });
    const [gone] = await Promise.all(answer);
    // Before: 500, the word cut gunzipping no bytes ("unexpected end of file"); the laptop's push failed.
    expect(gone).toMatchObject({ status: 400, json: { code: 'TEAM_CHUNKS_MISSING' } });
    expect(await team.db.sql`select uid from sessions`).toEqual([]);
    // what the laptop then does: sends the chunk again, then the batch
    expect((await upload(chunk)).status).toBe(200);
    expect((await team.pushSessions([session])).json.data).toMatchObject({ stored: 1 });
    expect(await holes()).toBe(0);
    await clear();
  });

  it("a chunk dropped while the session's transaction waits on it: refused, no hole", async () => {
    const [chunk] = chunksOf([promptsTranscript(3, ['another transcript two people pushed'])]);
    if (!chunk) throw new Error('no chunk');
    expect((await upload(chunk, bob)).status).toBe(200);
    const session = fullSession(3, [chunk]);
    // the drop's first step (its lock on the candidates) holds the chunk; ann's store, its words cut, waits on it
    const answer = await team.db.sql.begin(async (tx) => {
      await tx`select sha256 from chunks where sha256 = ${chunk.sha256} for update`;
      const sent = team.pushSessions([session]);
      await waiting('for key share');
      expect(await dropUnreferencedChunks(tx, [chunk.sha256])).toBe(1);
      return [sent];
    });
    const [gone] = await Promise.all(answer);
    // the store reads the chunk gone under its lock and refuses the batch: nothing refers to a chunk not stored
    expect(gone).toMatchObject({ status: 400, json: { code: 'TEAM_CHUNKS_MISSING' } });
    expect(await team.db.sql`select uid from sessions`).toEqual([]);
    expect(await holes()).toBe(0);
    await clear();
  });

  it("a refused sessions' shared chunk that cannot be dropped: the push stored everything, answered 200", async () => {
    const [shared] = chunksOf([promptsTranscript(7, ['a transcript copied into two sessions again'])]);
    const [own] = chunksOf([promptsTranscript(9, ["another of bob's own sessions"])]);
    if (!shared || !own) throw new Error('no chunk');
    expect((await team.pushSessions([metadataSession(7), metadataSession(8)])).json.data).toMatchObject({ stored: 2 });
    expect((await upload(shared, bob)).status).toBe(200);
    expect((await upload(own, bob)).status).toBe(200);
    await team.db.sql`update devices set last_push_at = null`;
    // the shared chunk held here (no key update: the sessions' key share passes, the drop's for update waits); the
    // drop's statement is cancelled while it waits (as a deadlock or a lock timeout would end it)
    const answer = await team.db.sql.begin(async (tx) => {
      await tx`select sha256 from chunks where sha256 = ${shared.sha256} for no key update`;
      const sent = team.pushSessions([fullSession(7, [shared]), fullSession(8, [shared]), fullSession(9, [own])], {
        token: bob,
      });
      await waiting('for update');
      await team.db.sql`select pg_cancel_backend(pid) from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and position('for update' in query) > 0`;
      return [sent];
    });
    const [pushed] = await Promise.all(answer);
    // Before: 500, though every session was stored or refused; no announce, no last push
    expect(pushed?.status).toBe(200);
    expect(pushed?.json.data).toMatchObject({ stored: 1 });
    const pushedAt = await team.db.sql`select d.id from devices d join people p on p.id = d.person_id
      where p.name = 'bob' and d.last_push_at is not null`;
    expect(pushedAt).toHaveLength(1);
    // left to the sweep a day later
    expect(await chunks()).toEqual({ all: 2, orphans: 1 });
    await clear();
  });
});
