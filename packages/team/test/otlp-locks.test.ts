/**
 * An export's telemetry locks are bounded, whatever it names: a request naming tens of thousands of session ids
 * takes at most `TELEMETRY_LOCKS` of them (before, one per id: PostgreSQL's lock table ran out of shared memory, and
 * the request was refused). Telemetry racing a forget of one of its sessions still lands before the forget (which
 * deletes it) or reads its record (and is dropped), never stored after it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lockSessionTelemetry } from '../src/pg/telemetry-tier.js';
import { NANO, personOf, underLocks } from './forgotten-harness.js';
import { kv } from './otlp-planted.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { uidOf } from './wire.js';

/** One prompt per session id, in one OTLP/JSON logs request. */
const promptsOf = (sessionIds: readonly string[]) => ({
  resourceLogs: [
    {
      resource: { attributes: [kv('service.name', 'claude-code')] },
      scopeLogs: [
        {
          logRecords: sessionIds.map((id) => ({
            timeUnixNano: NANO,
            attributes: [kv('event.name', 'user_prompt'), kv('session.id', id)],
          })),
        },
      ],
    },
  ],
});

pgSuite("an export's telemetry locks, bounded (real PostgreSQL, real HTTP)", () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
  });
  afterAll(async () => {
    await team?.close();
  });
  const idOf = async (name: string) =>
    (await team.db.sql<{ id: number }[]>`select id::int from people where name = ${name}`)[0]?.id ?? 0;
  const eventsOf = async (personId: number) =>
    (await team.db.sql<{ n: number }[]>`select count(*)::int as n from otel_events where person_id = ${personId}`)[0]
      ?.n;

  it('a request naming 40,000 session ids is stored whole', async () => {
    const xia = await personOf(team, 'xia');
    const ids = Array.from({ length: 40_000 }, (_, i) => `session-xia-${i}`);
    const r = await team.request('POST', '/v1/logs', promptsOf(ids), { token: xia.token });
    // before: 503, "out of shared memory" (a lock per id, in one transaction)
    expect([r.status, r.json]).toEqual([200, {}]);
    expect(await eventsOf(await idOf('xia'))).toBe(ids.length);
  });

  it('an export naming many sessions, racing the forget of one, drops it once the forget commits', async () => {
    const yan = await personOf(team, 'yan');
    expect((await yan.push(96)).json.data).toMatchObject({ stored: 1 });
    await yan.send(['session-96'], 'r1');
    expect(await yan.held('session-96')).toBe(4);
    // the forget waits on the id's telemetry lock (an export storing), its session deleted, its record not written;
    // the export sent then waits too, behind it
    const others = Array.from({ length: 2_000 }, (_, i) => `session-yan-${i}`);
    const personId = await idOf('yan');
    const [forgot, exported] = await underLocks(team, (tx) => lockSessionTelemetry(tx, personId, ['session-96']), [
      () => yan.forget([uidOf(96)]),
      () => team.request('POST', '/v1/logs', promptsOf([...others, 'session-96']), { token: yan.token }),
    ]);
    expect(forgot?.json.data).toEqual({ forgotten: 1 });
    expect(exported?.json).toMatchObject({ partialSuccess: { rejectedLogRecords: '1' } });
    expect(await yan.held('session-96')).toBe(0);
    expect(await eventsOf(personId)).toBe(others.length);
  });
});
