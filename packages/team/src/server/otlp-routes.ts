/**
 * OTLP/HTTP on the team port: `POST /v1/logs`, `/v1/traces`, `/v1/metrics` (OTLP/JSON or protobuf, gzip or not),
 * authenticated by a device token (`OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer …"`), so an exporter pointed at
 * the team server (`OTEL_EXPORTER_OTLP_ENDPOINT=https://team.example:4317`) goes through the same TLS and token as a
 * push. Each record is stored at the device's tier (`team add-device --share`), attributed to its person; the records
 * of a session the person forgot (`push --forget`) are dropped, counted in the answer's partial success and logged.
 *
 * And the team's `/api/telemetry/…` (`sessions`, `sessions/:id`, `sessions/:id/steps`, `measured/:id`, `ids`): the
 * laptop's telemetry routes over what devices sent, the same figures (`sessionTelemetryDto`); `/api/telemetry/setup`:
 * the lines that send here, with a device token's header.
 */
import { decodeOtlpRequest, type OtelSignal, otlpEncodingOf, signalOfOtlpPath } from '@agentdash/core';
import {
  MAX_TELEMETRY_STEPS,
  OTLP_MAX_BODY_BYTES,
  type SessionTelemetryDto,
  sessionTelemetryDto,
  teamTelemetrySetup,
  telemetryStepsResponse,
} from '@agentdash/server';
import { Hono } from 'hono';
import type { ShareTier } from '../contract.js';
import type { Sql } from '../pg/db.js';
import { telemetrySeen } from '../pg/device-seen.js';
import { teamQueries } from '../pg/queries.js';
import {
  storeTelemetry,
  teamMeasuredCalls,
  teamMeasuredRequests,
  teamMeasuredUids,
  teamSessionTelemetry,
  teamTelemetryOnly,
  teamTelemetryTimeline,
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
  // a device that only sends telemetry is alive: `team list` says when it was last seen
  const seen = telemetrySeen(sql);
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
    const body = await readLimited(
      c.req.raw,
      maxBodyBytes,
      true,
      "send fewer records per export (the exporter's batch size: OTEL_BLRP_MAX_EXPORT_BATCH_SIZE for logs)",
    );
    const decoded = decodeOtlpRequest({ signal, contentType, contentEncoding: '', body });
    const failure = decoded.ok ? undefined : decoded.issues[0];
    if (failure !== undefined) return c.text(reasonLine(`${failure.code}: ${failure.message}`), 400);
    // best effort: the telemetry is what the exporter sent, the note of it is not
    await seen(who.deviceId).catch(() => {});
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

  /** The pushed session `ref` names (its uid, as the dashboard names it), else the session id telemetry names. */
  const keyOf = async (ref: string, person: string | undefined) => {
    const summary = await queries.getSession(ref);
    if (summary) {
      const [row] = await sql<{ person_id: number; session_id: string }[]>`
        select person_id::int, session_id from sessions where uid = ${summary.id}`;
      return { summary, key: row ? { personId: row.person_id, sessionId: row.session_id } : undefined };
    }
    const only = await personIds(person);
    const [row] = await sql<{ person_id: number }[]>`
      select e.person_id::int from otel_events e join people p on p.id = e.person_id
      where e.session_id = ${ref} ${only ? sql`and e.person_id = any(${only}::bigint[])` : sql``}
      order by p.name limit 1`;
    return { summary, key: row ? { personId: row.person_id, sessionId: ref } : undefined };
  };
  const dtoOf = async (ref: string, person: string | undefined): Promise<SessionTelemetryDto | undefined> => {
    const { summary, key } = await keyOf(ref, person);
    const telemetry = key ? await teamSessionTelemetry(sql, key) : undefined;
    if (!key || !telemetry) return undefined;
    const measured = { calls: await teamMeasuredCalls(sql, key), requests: await teamMeasuredRequests(sql, key) };
    return sessionTelemetryDto(telemetry, summary, measured);
  };
  const noTelemetry = () => new TeamHttpError(404, 'no telemetry for this session', 'TEAM_NOT_FOUND');

  // the pushed sessions with telemetry (the list marks them "measured"), as the dashboard names them: by uid
  routes.get('/ids', async (c) =>
    c.json({ sessionIds: await teamMeasuredUids(sql, await personIds(c.req.query('person'))) }),
  );
  routes.get('/sessions/:id', async (c) => {
    const dto = await dtoOf(c.req.param('id'), c.req.query('person'));
    if (!dto) throw noTelemetry();
    return c.json(dto);
  });
  // the dashboard asks for every session it opens, most of which have no telemetry: not an error there
  routes.get('/measured/:id', async (c) =>
    c.json({ telemetry: (await dtoOf(c.req.param('id'), c.req.query('person'))) ?? null }),
  );
  routes.get('/sessions/:id/steps', async (c) => {
    const { key } = await keyOf(c.req.param('id'), c.req.query('person'));
    const steps = key ? await teamTelemetryTimeline(sql, key, MAX_TELEMETRY_STEPS + 1) : [];
    // telemetry none of which is a step (a plugin loaded, settings read): no steps, as the laptop answers
    if (!key || (steps.length === 0 && (await teamSessionTelemetry(sql, key)) === undefined)) throw noTelemetry();
    return c.json(telemetryStepsResponse(key.sessionId, steps));
  });
  return routes;
}
