/**
 * What the tests of the team server's record of forgotten sessions share: a person with a device at `full` who
 * pushes, forgets, unforgets and exports, and a way to run requests while locks are held elsewhere.
 */
import { expect } from 'vitest';
import { TEAM_PAYLOAD_VERSION } from '../src/contract.js';
import type { TxSql } from '../src/pg/db.js';
import { addDevice, addPerson } from '../src/pg/people.js';
import { kv } from './otlp-planted.js';
import type { TeamFixture } from './team-harness.js';
import { metadataSession } from './wire.js';

export const NANO = `${BigInt(Date.UTC(2026, 10, 20, 10, 0, 0)) * 1_000_000n}`;

/** An export of each signal: per session id, one prompt and one tool result, one span, one cost data point. */
export function exportOf(sessionIds: readonly string[], round: string) {
  const resource = { attributes: [kv('service.name', 'claude-code')] };
  const logRecords = sessionIds.flatMap((id) => [
    { timeUnixNano: NANO, attributes: [kv('event.name', 'user_prompt'), kv('session.id', id), kv('prompt', round)] },
    {
      timeUnixNano: NANO,
      attributes: [kv('event.name', 'tool_result'), kv('session.id', id), kv('tool_use_id', `toolu_${round}`)],
    },
  ]);
  const spans = sessionIds.map((id, i) => ({
    traceId: `${round}${i}`.padStart(32, 'a'),
    spanId: `${round}${i}`.padStart(16, 'b'),
    name: 'claude_code.tool',
    startTimeUnixNano: NANO,
    endTimeUnixNano: NANO,
    attributes: [kv('session.id', id)],
  }));
  const dataPoints = sessionIds.map((id) => ({
    timeUnixNano: NANO,
    asDouble: 0.5,
    attributes: [kv('session.id', id), kv('round', round)],
  }));
  return {
    '/v1/logs': { resourceLogs: [{ resource, scopeLogs: [{ logRecords }] }] },
    '/v1/traces': { resourceSpans: [{ resource, scopeSpans: [{ spans }] }] },
    '/v1/metrics': {
      resourceMetrics: [
        {
          resource,
          scopeMetrics: [
            { metrics: [{ name: 'claude_code.cost.usage', sum: { aggregationTemporality: 1, dataPoints } }] },
          ],
        },
      ],
    },
  };
}

/** A person whose device the admin added at `full`: it pushes, forgets, unforgets and exports. */
export async function personOf(team: TeamFixture, name: string) {
  await addPerson(team.db.sql, name);
  const { token } = await addDevice(team.db.sql, name, 'laptop', 'full');
  const api = (path: string, uids: readonly string[]) =>
    team.request('POST', `/api/team/v1/push/${path}`, { version: TEAM_PAYLOAD_VERSION, uids }, { token });
  /** Each signal's OTLP/JSON answer body. */
  const send = async (sessionIds: readonly string[], round: string) => {
    const answers: Record<string, unknown> = {};
    for (const [path, body] of Object.entries(exportOf(sessionIds, round))) {
      const r = await team.request('POST', path, body, { token });
      expect(r.status).toBe(200);
      answers[path] = r.json;
    }
    return answers;
  };
  /** How many records of `sessionId` the person's telemetry holds. */
  const held = async (sessionId: string) =>
    (
      await team.db.sql<{ n: number }[]>`select
        (select count(*) from otel_events e where e.session_id = ${sessionId} and e.person_id = p.id)
        + (select count(*) from otel_spans s where s.session_id = ${sessionId} and s.person_id = p.id)
        + (select count(*) from otel_metrics m where m.session_id = ${sessionId} and m.person_id = p.id) as n
      from people p where p.name = ${name}`
    )[0]?.n;
  /** One prompt of `sessionId` as OTLP/protobuf (every message here under 128 bytes: one-byte lengths). */
  const sendProtobuf = async (sessionId: string) => {
    const field = (n: number, bytes: Buffer) => Buffer.concat([Buffer.from([(n << 3) | 2, bytes.length]), bytes]);
    const attribute = (key: string, value: string) =>
      field(6, Buffer.concat([field(1, Buffer.from(key)), field(2, field(1, Buffer.from(value)))]));
    const time = Buffer.alloc(9);
    time[0] = (1 << 3) | 1;
    time.writeBigUInt64LE(BigInt(NANO), 1);
    const record = Buffer.concat([time, attribute('event.name', 'user_prompt'), attribute('session.id', sessionId)]);
    const body = field(1, field(2, field(2, record)));
    const r = await fetch(`${team.url}/v1/logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-protobuf' },
      body,
    });
    expect([r.status, r.headers.get('content-type')]).toEqual([200, 'application/x-protobuf']);
    return Buffer.from(await r.arrayBuffer());
  };
  return {
    /** The device's token. */
    token,
    sendProtobuf,
    push: (n: number, title?: string) => team.pushSessions([metadataSession(n, title)], { token }),
    pushSessions: (sessions: Parameters<TeamFixture['pushSessions']>[0]) => team.pushSessions(sessions, { token }),
    forget: (uids: readonly string[]) => api('forget', uids),
    unforget: (uids: readonly string[]) => api('unforget', uids),
    send,
    held: async (sessionId: string) => Number(await held(sessionId)),
  };
}
/**
 * The backends of this file's database waiting on a lock of `locktype` (PostgreSQL's own view), by process id. The
 * run's files share one server, each with a database of its own: another file's waits are not counted.
 */
export async function waitingBackends(team: TeamFixture, locktype: string): Promise<number[]> {
  const rows = await team.db.sql<{ pid: number }[]>`select pid from pg_locks
    where not granted and locktype = ${locktype}
    and pid in (select pid from pg_stat_activity where datname = current_database())`;
  return rows.map((r) => r.pid);
}

/** How many backends of this file's database wait on a lock of `locktype` (`waitingBackends`). */
export async function waitingLocks(team: TeamFixture, locktype: string): Promise<number> {
  return (await waitingBackends(team, locktype)).length;
}

/**
 * Runs `operations` while `take` holds locks elsewhere (a push or an export storing), each started once those
 * before it wait on a lock or ended; the locks released once all do. Their answers.
 */
export async function underLocks<T>(
  team: TeamFixture,
  take: (tx: TxSql) => Promise<unknown>,
  operations: readonly (() => Promise<T>)[],
): Promise<T[]> {
  let ended = 0;
  const running: Promise<T>[] = [];
  await team.db.sql.begin(async (tx) => {
    await take(tx);
    for (const op of operations) {
      running.push(op().finally(() => ended++));
      for (let i = 0; i < 400; i++) {
        if ((await waitingLocks(team, 'advisory')) + ended >= running.length) break;
        await new Promise((done) => setTimeout(done, 25));
      }
    }
  });
  return await Promise.all(running);
}
