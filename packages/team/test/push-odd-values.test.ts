/**
 * Values PostgreSQL cannot hold as the laptop sends them, against a real PostgreSQL over HTTP: a Windows exit code
 * (unsigned 32 bits: 0xC0000005 is 3221225477) and a NUL in a title, a call's summary or its error (binary output of
 * a failed command). Each made the whole batch answer 500, at any tier, and the laptop sent it again on every push:
 * no session after it was ever stored. Now stored (an exit code as it is, a NUL as U+FFFD, as telemetry stores it);
 * and a session the database still cannot store is refused alone, the rest of its batch stored.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { metadataSession, seal, summarySession, uidOf } from './wire.js';

pgSuite('odd values in a push (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
  });
  afterAll(async () => {
    await team?.close();
  });

  it("stores a Windows exit code and a NUL in a session's texts, and the rest of the batch", async () => {
    const windows = summarySession(301);
    const exit = seal({
      ...windows,
      calls: windows.calls.map((c, i) => (i === 0 ? { ...c, exitCode: 3221225477 } : c)),
    });
    const meta = metadataSession(302, 'binary\u0000title');
    const nul = seal({
      ...meta,
      calls: meta.calls.map((c, i) =>
        i === 0 ? { ...c, summary: 'cat a.bin → exit 1', errorMessage: 'out\u0000put' } : c,
      ),
    });
    const answer = await team.pushSessions([exit, nul, summarySession(303)]);
    expect(answer.status, answer.json.error).toBe(200);
    const rows = await team.db.sql<{ uid: string; title: string | null }[]>`
      select uid, body->>'title' as title from sessions where uid in ${team.db.sql([uidOf(301), uidOf(302), uidOf(303)])}
      order by uid`;
    expect(rows.length).toBe(3);
    const [code] = await team.db.sql<{ exit_code: number }[]>`
      select exit_code from calls where uid = ${uidOf(301)} and call_id = 'toolu_301_1'`;
    expect(code?.exit_code).toBe(3221225477);
    const [call] = await team.db.sql<{ error_message: string }[]>`
      select error_message from calls where uid = ${uidOf(302)} and call_id = 'toolu_302_1'`;
    expect(call?.error_message).toBe('out\uFFFDput');
  });

  it('refuses alone a session the database refuses a value of, and stores the rest of its batch', async () => {
    const failing = uidOf(311);
    await team.db.sql.unsafe(`
      create function refuse_a_value() returns trigger language plpgsql as $$
        begin if new.uid = '${failing}' then raise exception 'a value refused by the test' using errcode = '22003';
        end if; return new; end $$;
      create trigger refuse_a_value before insert on calls for each row execute function refuse_a_value();`);
    try {
      const answer = await team.pushSessions([summarySession(311), summarySession(312), summarySession(313)]);
      expect(answer.status, answer.json.error).toBe(200);
      expect((answer.json.data as { refused?: unknown }).refused).toEqual([
        { uid: failing, reason: 'the team server cannot store it: a value refused by the test' },
      ]);
      const stored = await team.db.sql<{ uid: string }[]>`
        select uid from sessions where uid in ${team.db.sql([failing, uidOf(312), uidOf(313)])} order by uid`;
      expect(stored.map((r) => r.uid).sort()).toEqual([uidOf(312), uidOf(313)].sort());
    } finally {
      await team.db.sql.unsafe('drop trigger refuse_a_value on calls; drop function refuse_a_value()');
    }
  });
});
