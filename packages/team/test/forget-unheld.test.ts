/**
 * `push --forget` of a session the team server never held: the laptop names the session's id with its uid
 * (`push/forget-sessions`), so the server records it, deletes the telemetry of it it stored, and drops what is sent
 * of it later (before, a forget sent uids alone: the record named no session id, and the telemetry stayed and kept
 * coming). A server without the route is sent a forget of the uids, as before.
 */
import { join } from 'node:path';
import type { AgentIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDevice, addPerson } from '../src/pg/people.js';
import { TeamClient } from '../src/push/client.js';
import { ForgottenSessions } from '../src/push/forgotten.js';
import { forget, unforget } from '../src/push/push.js';
import { NANO } from './forgotten-harness.js';
import { kv } from './otlp-planted.js';
import { pgSuite } from './pg-harness.js';
import { type PlantedIndex, plantedIndex } from './planted-home.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { metadataSession, uidOf } from './wire.js';

pgSuite('push --forget of a session the team server never held (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  let laptop: PlantedIndex;
  let dir: string;
  let index: AgentIndex;
  beforeAll(async () => {
    team = await startTeam();
    laptop = await plantedIndex('agentdash-forget-unheld-');
    ({ dir, index } = laptop);
  });
  afterAll(async () => {
    laptop?.close();
    await team?.close();
  });

  /** A person with a device at `full`, its client and its OTLP prompts of a session id. */
  async function personWith(name: string, fetchVia?: typeof fetch) {
    await addPerson(team.db.sql, name);
    const { token } = await addDevice(team.db.sql, name, 'laptop', 'full');
    const client = new TeamClient({ url: team.url, token, retryMs: 0, ...(fetchVia ? { fetch: fetchVia } : {}) });
    const send = async (sessionId: string, round: string) => {
      const attributes = [kv('event.name', 'user_prompt'), kv('session.id', sessionId), kv('prompt', round)];
      const body = {
        resourceLogs: [{ resource: {}, scopeLogs: [{ logRecords: [{ timeUnixNano: NANO, attributes }] }] }],
      };
      const r = await team.request('POST', '/v1/logs', body, { token });
      expect(r.status).toBe(200);
      return r.json;
    };
    const held = async (sessionId: string) =>
      (
        await team.db.sql<{ n: number }[]>`select count(*)::int as n from otel_events e join people p
          on p.id = e.person_id where p.name = ${name} and e.session_id = ${sessionId}`
      )[0]?.n;
    return { client, send, held };
  }

  it("records the session's id: its telemetry stored before goes, and what is sent after is dropped", async () => {
    const [session] = index.listSessions({});
    const amy = await personWith('amy');
    // the agent exports before any push of the session, which the person then forgets
    await amy.send(session!.id, 'before');
    expect(await amy.held(session!.id)).toBe(1);
    const list = ForgottenSessions.load(join(dir, 'amy-forgotten.json'));
    expect(await forget(amy.client, [session!], list)).toBe(0);
    expect(await amy.held(session!.id)).toBe(0);
    expect(await amy.send(session!.id, 'after')).toMatchObject({ partialSuccess: { rejectedLogRecords: '1' } });
    expect(await amy.held(session!.id)).toBe(0);
    // the unforget clears the record: the session's telemetry is stored again
    expect(await unforget(amy.client, [session!], list)).toBe(1);
    expect(await amy.send(session!.id, 'again')).toEqual({});
    expect(await amy.held(session!.id)).toBe(1);
  });

  it('a server without the route is sent a forget of the uids', async () => {
    const [session] = index.listSessions({});
    const asked: string[] = [];
    const older: typeof fetch = async (input, init) => {
      const path = new URL(String(input)).pathname.replace(/^.*\/api\/team\/v1/, '');
      asked.push(path);
      if (path === '/push/forget-sessions') {
        return new Response(JSON.stringify({ success: false, error: 'not found' }), { status: 404 });
      }
      return fetch(input, init);
    };
    const bo = await personWith('bo', older);
    await bo.send(session!.id, 'before');
    expect(await forget(bo.client, [session!], ForgottenSessions.load(join(dir, 'bo-forgotten.json')))).toBe(0);
    expect(asked).toEqual(['/whoami', '/push/forget-sessions', '/push/forget']);
    // that server's record names no session id: its telemetry stays, as there
    expect(await bo.held(session!.id)).toBe(1);
  });

  it("a forget naming another person's held uid records nothing and deletes nothing", async () => {
    const cy = await personWith('cy');
    const dee = await personWith('dee');
    const cyToken = (await addDevice(team.db.sql, 'cy', 'desk', 'full')).token;
    expect((await team.pushSessions([metadataSession(95)], { token: cyToken })).json.data).toMatchObject({ stored: 1 });
    await dee.send('session-dee', 'before');
    expect(await dee.client.forgetSessions([{ uid: uidOf(95), sessionId: 'session-dee' }])).toBe(0);
    expect(await team.db.sql`select uid from forgotten_sessions where uid = ${uidOf(95)}`).toEqual([]);
    expect(await dee.held('session-dee')).toBe(1);
    await cy.send('session-95', 'after');
    expect(await cy.held('session-95')).toBe(1);
  });
});
