/**
 * `push/forget-sessions` naming a uid already forgotten (real PostgreSQL, real HTTP): another person's uid is theirs,
 * so the request records nothing and deletes none of the sender's telemetry of the id it names; the person's own
 * record keeps the id it was recorded with.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEAM_PAYLOAD_VERSION } from '../src/contract.js';
import { personOf } from './forgotten-harness.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { uidOf } from './wire.js';

pgSuite('forget-sessions of a uid another person forgot (real PostgreSQL)', () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
  });
  afterAll(async () => {
    await team?.close();
  });

  const forgetSessions = (token: string, uid: string, sessionId: string) =>
    team.request(
      'POST',
      '/api/team/v1/push/forget-sessions',
      { version: TEAM_PAYLOAD_VERSION, sessions: [{ uid, sessionId }] },
      { token },
    );

  it("leaves the sender's telemetry of the id and records nothing", async () => {
    const cy = await personOf(team, 'cy');
    const dee = await personOf(team, 'dee');
    const uid = uidOf('held-elsewhere');
    // cy forgets a session the server never held: the uid is cy's
    expect((await forgetSessions(cy.token, uid, 'cy-session')).status).toBe(200);
    // dee's telemetry of another id, then dee names cy's uid with it
    await dee.send(['dee-session'], 'r1');
    const before = await dee.held('dee-session');
    expect(before).toBeGreaterThan(0);
    expect((await forgetSessions(dee.token, uid, 'dee-session')).status).toBe(200);
    // Before: dee's telemetry of the id deleted (0), though nothing was recorded of it
    expect(await dee.held('dee-session')).toBe(before);
    const rows = await team.db.sql`select p.name from forgotten_sessions f join people p on p.id = f.person_id`;
    expect(rows).toEqual([{ name: 'cy' }]);
    // and dee's later telemetry of the id is stored
    await dee.send(['dee-session'], 'r2');
    expect(await dee.held('dee-session')).toBeGreaterThan(before);
  });

  it('a resend naming another id keeps the id the record holds', async () => {
    const eve = await personOf(team, 'eve');
    const uid = uidOf('named-twice');
    expect((await forgetSessions(eve.token, uid, 'eve-stored-id')).status).toBe(200);
    // the laptop's resend names the session by another form of its id
    expect((await forgetSessions(eve.token, uid, 'eve-summary-form')).status).toBe(200);
    // Before: the record held the second id's hash, and the first id's telemetry was stored again
    await eve.send(['eve-stored-id'], 'r1');
    expect(await eve.held('eve-stored-id')).toBe(0);
  });
});
