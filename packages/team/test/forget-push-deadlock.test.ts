/**
 * A forget and a push of one person at once, their sessions sharing a chunk and their session ids a telemetry lock
 * (real PostgreSQL, real HTTP). The race is interleaved from the test: it holds a chunk the push waits on, and goes
 * on once PostgreSQL shows each request waiting where it should.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEAM_PAYLOAD_VERSION } from '../src/contract.js';
import { uidLockKey } from '../src/pg/forgotten.js';
import { telemetryLockOf } from '../src/pg/telemetry-tier.js';
import { waitingLocks } from './forgotten-harness.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { chunksOf, fullSession, metadataSession, promptsTranscript, uidOf } from './wire.js';

pgSuite('a forget and a push of one person at once (real PostgreSQL)', () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
  });
  afterAll(async () => {
    await team?.close();
  });

  /** Waits until a backend waits on a lock of `locktype` (PostgreSQL's own view of it). */
  const waiting = async (locktype: string) => {
    for (;;) {
      if ((await waitingLocks(team, locktype)) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const upload = (chunk: { sha256: string; bytes: Buffer }) =>
    team.request('PUT', `/api/team/v1/push/chunks/${chunk.sha256}`, undefined, { raw: chunk.bytes });

  it('a forget of A and a push of B sharing a chunk and a telemetry lock: both done, no deadlock', async () => {
    // two sessions whose ids (`session-<n>`) share a telemetry lock
    const a = 1;
    let b = 2;
    while (telemetryLockOf(`session-${b}`) !== telemetryLockOf(`session-${a}`)) b++;
    const pieces = chunksOf([
      promptsTranscript(a, ['a transcript both sessions begin with']),
      promptsTranscript(b, ['what session B says next']),
    ]);
    // `first` sorts before `shared`: the push locks its chunks in that order
    const [first, shared] = [...pieces].sort((x, y) => (x.sha256 < y.sha256 ? -1 : 1));
    if (!first || !shared) throw new Error('no chunk');
    for (const chunk of [first, shared]) expect((await upload(chunk)).status).toBe(200);
    const stored = await team.pushSessions([fullSession(a, [shared]), fullSession(b, [shared])]);
    expect(stored.json.data).toMatchObject({ stored: 2 });
    const answers = await team.db.sql.begin(async (tx) => {
      // the push of B takes its uid's and telemetry's locks, then waits on `first` (held here) before `shared`
      await tx`select sha256 from chunks where sha256 = ${first.sha256} for update`;
      const push = team.pushSessions([fullSession(b, [shared, first])]);
      await waiting('transactionid');
      // the forget of A waits on the telemetry lock the push holds. Before, it held `shared` (its chunk, dropped
      // unless referred to) by then: let go here, the push waited on it, and PostgreSQL aborted the forget (500).
      const forget = team.request('POST', '/api/team/v1/push/forget', {
        version: TEAM_PAYLOAD_VERSION,
        uids: [uidOf(a)],
      });
      await waiting('advisory');
      return [push, forget];
    });
    const [push, forget] = await Promise.all(answers);
    expect([push?.status, forget?.status]).toEqual([200, 200]);
    expect(push?.json.data).toMatchObject({ stored: 1 });
    expect(await team.db.sql`select uid from sessions`).toEqual([{ uid: uidOf(b) }]);
    expect(await team.db.sql`select uid from forgotten_sessions`).toEqual([{ uid: uidOf(a) }]);
    expect((await team.db.sql`select sha256 from chunks order by sha256`).map((r) => r.sha256)).toEqual([
      first.sha256,
      shared.sha256,
    ]);
  });

  it('a forget PostgreSQL aborts to break a deadlock runs again', async () => {
    expect((await team.pushSessions([metadataSession(30)])).json.data).toMatchObject({ stored: 1 });
    const [ann] = await team.db.sql<{ id: string }[]>`select id::text from people where name = 'ann'`;
    const telemetry = `agentdash-otel:${ann?.id}:${telemetryLockOf('session-30')}`;
    const answers = await team.db.sql.begin(async (tx) => {
      // held here: the telemetry lock the forget waits on, holding its uid's; then the uid's, which it holds. The
      // backend whose deadlock check (`deadlock_timeout` after it began to wait) finds the cycle first is aborted:
      // this one checks a minute later than the forget, so the forget is, however late a loaded machine runs its
      // check (waiting first was not enough: a run under load aborted this transaction instead)
      await tx`set local deadlock_timeout = '60s'`;
      await tx`select pg_advisory_xact_lock(hashtextextended(${telemetry}, 0))`;
      const forget = team.request('POST', '/api/team/v1/push/forget', {
        version: TEAM_PAYLOAD_VERSION,
        uids: [uidOf(30)],
      });
      await waiting('advisory');
      await tx`select pg_advisory_xact_lock(hashtextextended(${uidLockKey(uidOf(30))}, 0))`;
      return [forget];
    });
    const [forget] = await Promise.all(answers);
    // Before: 500 (40P01)
    expect(forget?.status).toBe(200);
    expect(forget?.json.data).toEqual({ forgotten: 1 });
    expect(await team.db.sql`select uid from sessions where uid = ${uidOf(30)}`).toEqual([]);
  });
});
