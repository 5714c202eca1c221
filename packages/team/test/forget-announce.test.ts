/**
 * A forget runs in batches (`FORGET_BATCH` uids a transaction): when a later batch fails, the sessions the batches
 * before it deleted are gone for good, and the live dashboards are told so (before, nothing was announced, and their
 * cached lists and pages showed the sessions until they expired).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FORGET_BATCH } from '../src/pg/forgotten.js';
import { CHANGES_CHANNEL, notifyChanged } from '../src/server/team-live.js';
import { personOf } from './forgotten-harness.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { uidOf } from './wire.js';

pgSuite('a forget whose later batch fails announces what it committed (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
  });
  afterAll(async () => {
    await team?.close();
  });

  it("the earlier batches' sessions are deleted and announced, the failed batch's kept", async () => {
    const zoe = await personOf(team, 'zoe');
    const [first, second, failing] = [uidOf(97), uidOf(98), uidOf(99)];
    expect((await zoe.push(97)).json.data).toMatchObject({ stored: 1 });
    expect((await zoe.push(98)).json.data).toMatchObject({ stored: 1 });
    expect((await zoe.push(99)).json.data).toMatchObject({ stored: 1 });
    // one held session in each of three batches; the third batch's delete fails (a trigger standing in for a
    // connection lost, a statement cancelled)
    const filler = (batch: number) => Array.from({ length: FORGET_BATCH - 1 }, (_, i) => uidOf(`zoe-${batch}-${i}`));
    const uids = [first, ...filler(1), second, ...filler(2), failing];
    await team.db.sql.unsafe(`
      create function refuse_a_delete() returns trigger language plpgsql as $$
        begin if old.uid = '${failing}' then raise exception 'a delete refused by the test'; end if; return old; end $$;
      create trigger refuse_a_delete before delete on sessions for each row execute function refuse_a_delete();`);
    // What is heard from 'the-start' on: the pushes' own notes may still be on their way to the pool's listening
    // connection, which the server's live events share, when this listener joins it.
    const heard: string[] = [];
    let started = false;
    let heardStart: (() => void) | undefined;
    let heardAll: (() => void) | undefined;
    const listening = await team.db.sql.listen(CHANGES_CHANNEL, (payload) => {
      const uids = (JSON.parse(payload) as { uids: string[] }).uids;
      if (!started) {
        started = uids.includes('the-start');
        if (started) heardStart?.();
        return;
      }
      heard.push(...uids);
      if (heard.includes('the-end')) heardAll?.();
    });
    try {
      const start = new Promise<void>((resolve) => {
        heardStart = resolve;
      });
      await notifyChanged(team.db.sql, ['the-start']);
      await start;
      const answer = await zoe.forget(uids);
      expect(answer.status).toBe(500);
      // notes arrive in the order they were sent: this one, sent after the forget answered, comes after its
      const ended = new Promise<void>((resolve) => {
        heardAll = resolve;
      });
      await notifyChanged(team.db.sql, ['the-end']);
      await ended;
      expect(heard).toEqual([first, second, 'the-end']);
      const held = await team.db.sql<{ uid: string }[]>`select uid from sessions
        where uid = any(${[first, second, failing]}::text[])`;
      expect(held.map((r) => r.uid)).toEqual([failing]);
    } finally {
      await listening.unlisten();
      await team.db.sql.unsafe(`drop trigger refuse_a_delete on sessions; drop function refuse_a_delete()`);
    }
  });
});
