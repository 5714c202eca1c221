/**
 * The team server when PostgreSQL ends a connection in the middle of a transaction (a restart, a failover, an
 * administrator's `pg_terminate_backend`, `idle_in_transaction_session_timeout`): the request answers 503 and the
 * server goes on. postgres.js 3.4 wrote its own ROLLBACK on the dead connection from a timer, a TypeError no caller
 * could catch, and the process died (porsager/postgres#1208); here that error fails the run as an unhandled one.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lockUids } from '../src/pg/forgotten.js';
import { personOf, waitingBackends } from './forgotten-harness.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { uidOf } from './wire.js';

pgSuite('a transaction whose connection PostgreSQL ends (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
  });
  afterAll(async () => {
    await team?.close();
  });

  /** Runs `request` while the lock of `uid` is held, and ends the connection of its transaction once it waits there. */
  async function killedWhileWaiting<T>(uid: string, request: () => Promise<T>): Promise<T> {
    let answer: Promise<T> | undefined;
    await team.db.sql.begin(async (tx) => {
      await lockUids(tx, [uid]);
      answer = request();
      let pids = await waitingBackends(team, 'advisory');
      for (let i = 0; i < 400 && pids.length === 0; i++) {
        await new Promise((done) => setTimeout(done, 25));
        pids = await waitingBackends(team, 'advisory');
      }
      expect(pids).toHaveLength(1);
      await tx`select pg_terminate_backend(${pids[0] as number})`;
      // the request's transaction is gone before this one lets go of the lock
      await answer.catch(() => undefined);
    });
    return (await answer) as T;
  }

  it('answers 503 for a push whose transaction lost its connection, then stores it again', async () => {
    const zoe = await personOf(team, 'zoe');
    const lost = await killedWhileWaiting(uidOf(1), () => zoe.push(1));
    expect([lost.status, lost.json.code]).toEqual([503, 'TEAM_DB_UNREACHABLE']);
    expect(lost.json.error).toMatch(/cannot reach its database \(shut down by its administrator\)/);
    const held = async () =>
      (await team.db.sql<{ n: number }[]>`select count(*)::int as n from sessions where uid = ${uidOf(1)}`)[0]?.n;
    expect(await held()).toBe(0);

    // the same server, its pool whole again: the push is stored, the device answered
    expect((await zoe.push(1)).json.data).toMatchObject({ stored: 1 });
    expect(await held()).toBe(1);
    const whoami = await team.request('GET', '/api/team/v1/whoami', undefined, { token: zoe.token });
    expect(whoami.json.success).toBe(true);
  });

  it('answers 503 for a forget whose transaction lost its connection, and forgets on the next try', async () => {
    const amy = await personOf(team, 'amy');
    expect((await amy.push(2)).json.data).toMatchObject({ stored: 1 });
    const lost = await killedWhileWaiting(uidOf(2), () => amy.forget([uidOf(2)]));
    expect([lost.status, lost.json.code]).toEqual([503, 'TEAM_DB_UNREACHABLE']);
    const again = await amy.forget([uidOf(2)]);
    expect([again.status, again.json.data]).toEqual([200, { forgotten: 1 }]);
  });
});
