/**
 * OTLP/HTTP on the team port: `POST /v1/logs`, `/v1/traces`, `/v1/metrics` (OTLP/JSON or protobuf, gzip or not),
 * authenticated by a device token (`OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer …"`), so an exporter pointed at
 * the team server (`OTEL_EXPORTER_OTLP_ENDPOINT=https://team.example:4317`) goes through the same TLS and token as a
 * push. Each record is stored at the device's tier (`team add-device --share`), attributed to its person; the records
 * of a session the person forgot (`push --forget`) are dropped, counted in the answer's partial success and logged.
 *
 * And the team's `/api/telemetry/sessions(/:id)`: the laptop's telemetry routes over what devices sent, the same
 * figures (`sessionTelemetryDto`); `/api/telemetry/setup`: the lines that send here, with a device token's header.
 */
import { decodeOtlpRequest, type OtelSignal, otlpEncodingOf, signalOfOtlpPath } from '@agentdash/core';
import { OTLP_MAX_BODY_BYTES, sessionTelemetryDto, teamTelemetrySetup } from '@agentdash/server';
import { Hono } from 'hono';
import type { ShareTier } from '../contract.js';
import type { Sql } from '../pg/db.js';
import { teamQueries } from '../pg/queries.js';
import {
  storeTelemetry,
  type TelemetryKey,
  teamMeasuredCalls,
  teamMeasuredRequests,
  teamSessionTelemetry,
  teamTelemetryOnly,
} from '../pg/telemetry.js';
import { type TeamEnv, teamAuth } from './auth.js';
import { readLimited } from './body.js';
import { droppedLog, droppedWhy, partialSuccessJson, partialSuccessProtobuf } from './otlp-partial.js';
import { reachedOrigin, TeamHttpError } from './team-http.js';
import { notifyTelemetry } from './team-live.js';

/** One line, for a 400's body and the exporter's log (as the laptop's receiver answers). */
const reasonLine = (message: string) => `${message.replace(/[\r\n]+/g, ' ').slice(0, 300)}\n`;

export function otlpRoutes(sql: Sql, maxBodyBytes = OTLP_MAX_BODY_BYTES): Hono<TeamEnv> {
  const routes = new Hono<TeamEnv>();
  const logDropped = droppedLog();
  routes.use('/v1/*', teamAuth(sql, { browser: false }));
  routes.post('/v1/:signal{logs|traces|metrics}', async (c) => {
    const who = c.get('principal');
    if (who.role !== 'device') {
      throw new TeamHttpError(
        403,
        'a viewer token reads the dashboard; only a device token sends telemetry',
        'TEAM_NOT_A_DEVICE',
      );
    }
    const signal = signalOfOtlpPath(c.req.path) as OtelSignal;
    const contentType = c.req.header('content-type') ?? '';
    // gzip is undone while reading, the cap applying to the inflated bytes
    const body = await readLimited(c.req.raw, maxBodyBytes, true);
    const decoded = decodeOtlpRequest({ signal, contentType, contentEncoding: '', body });
    const failure = decoded.ok ? undefined : decoded.issues[0];
    if (failure !== undefined) return c.text(reasonLine(`${failure.code}: ${failure.message}`), 400);
    const [device] = await sql<{ tier: ShareTier }[]>`select otel_tier as tier from devices where id = ${who.deviceId}`;
    let dropped = 0;
    try {
      const stored = await storeTelemetry(sql, decoded.records, {
        personId: who.personId,
        deviceId: who.deviceId,
        tier: device?.tier ?? 'summary',
      });
      dropped = stored.dropped;
      // an exporter's retry stores nothing and announces nothing
      await notifyTelemetry(sql, who.personId, stored.sessionIds).catch(() => {});
    } catch (error) {
      console.error('agentdash team server: telemetry could not be stored:', error);
      // the exporter retries on 503
      return c.text(reasonLine('telemetry could not be stored now; retry'), 503);
    }
    const why = droppedWhy(dropped);
    logDropped(`${who.person}/${who.device}`, dropped);
    if (otlpEncodingOf(contentType) === 'protobuf') {
      const body = dropped === 0 ? new Uint8Array() : partialSuccessProtobuf(dropped, why);
      return c.body(body, 200, { 'content-type': 'application/x-protobuf' });
    }
    return c.json(dropped === 0 ? {} : partialSuccessJson(signal, dropped, why));
  });
  routes.all('/v1/:signal{logs|traces|metrics}', (c) => c.text(reasonLine('OTLP/HTTP takes POST'), 405));
  return routes;
}

/** The team's `/api/telemetry` routes (mounted behind the dashboard's token check). */
export function teamTelemetryRoutes(sql: Sql): Hono<TeamEnv> {
  const routes = new Hono<TeamEnv>();
  const queries = teamQueries(sql);
  const personIds = async (person: string | undefined) =>
    person === undefined
      ? undefined
      : (await sql<{ id: number }[]>`select id::int from people where name = ${person}`).map((r) => r.id);

  // `?device=NAME` or `PERSON/NAME`, as the dashboard's other routes take it
  const deviceIds = async (device: string | undefined) => {
    if (device === undefined) return undefined;
    const slash = device.indexOf('/');
    const [person, name] = slash === -1 ? [undefined, device] : [device.slice(0, slash), device.slice(slash + 1)];
    return (
      await sql<{ id: number }[]>`select d.id::int from devices d join people p on p.id = d.person_id
        where d.name = ${name} ${person === undefined ? sql`` : sql`and p.name = ${person}`}`
    ).map((r) => r.id);
  };

  // the lines a machine sends its agents' telemetry here with: this port, its device's token
  routes.get('/setup', (c) => c.json(teamTelemetrySetup(reachedOrigin(c))));

  routes.get('/sessions', async (c) => {
    const keys = await teamTelemetryOnly(
      sql,
      await personIds(c.req.query('person')),
      await deviceIds(c.req.query('device')),
    );
    const names = new Map(
      (await sql<{ id: number; name: string }[]>`select id::int, name from people`).map((r) => [r.id, r.name]),
    );
    const sessions = [];
    for (const key of keys.slice(0, 500)) {
      const telemetry = await teamSessionTelemetry(sql, key);
      // whose session it is: the device's person that sent it
      if (telemetry) sessions.push({ ...telemetry, person: names.get(key.personId) ?? null });
    }
    return c.json({ sessions });
  });

  routes.get('/sessions/:id', async (c) => {
    const ref = c.req.param('id');
    // a pushed session (by its uid, as the dashboard names it), else a session id telemetry names
    const summary = await queries.getSession(ref);
    let key: TelemetryKey | undefined;
    if (summary) {
      const [row] = await sql<{ person_id: number; session_id: string }[]>`
        select person_id::int, session_id from sessions where uid = ${summary.id}`;
      if (row) key = { personId: row.person_id, sessionId: row.session_id };
    } else {
      const only = await personIds(c.req.query('person'));
      const [row] = await sql<{ person_id: number }[]>`
        select e.person_id::int from otel_events e join people p on p.id = e.person_id
        where e.session_id = ${ref} ${only ? sql`and e.person_id = any(${only}::bigint[])` : sql``}
        order by p.name limit 1`;
      if (row) key = { personId: row.person_id, sessionId: ref };
    }
    const telemetry = key ? await teamSessionTelemetry(sql, key) : undefined;
    if (!key || !telemetry) throw new TeamHttpError(404, 'no telemetry for this session', 'TEAM_NOT_FOUND');
    const measured = { calls: await teamMeasuredCalls(sql, key), requests: await teamMeasuredRequests(sql, key) };
    return c.json(sessionTelemetryDto(telemetry, summary, measured));
  });
  return routes;
}
