/**
 * The team server's HTTP app: the push routes (`/api/team/v1`) and the dashboard with its JSON API over every pushed
 * session. Every request carries a team token, checked against the database each time.
 *
 * Who sees what: every active token of the team (a device's, which reads as its person, or a viewer's) reads every
 * pushed session; the sharing tier each person chose bounds what there is to read. `?person=` and `?device=` filter.
 */
import { createApp, type TeamPeopleResponse } from '@agentdash/server';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { shareTiers } from '../contract.js';
import { lostDatabaseReason, type Sql } from '../pg/db.js';
import { teamQueries } from '../pg/queries.js';
import type { StatisticsKeeper } from '../pg/statistics.js';
import { type TeamEnv, teamAuth } from './auth.js';
import { createIngestGate, type IngestGate } from './ingest-gate.js';
import { otlpRoutes, teamTelemetryRoutes } from './otlp-routes.js';
import { pushRoutes } from './push-routes.js';
import { teamSessionHost } from './session-host.js';
import { TeamHttpError, teamErrorResponse } from './team-http.js';
import type { TeamLiveEvents } from './team-live.js';

export interface TeamAppDeps {
  readonly sql: Sql;
  /** Where the server listens (the dashboard's links); the Host header is not checked: every request has a token. */
  readonly host?: string | undefined;
  readonly port?: number | undefined;
  /** The built dashboard (default: the server package's). */
  readonly assetsDir?: string | undefined;
  /** Pushes announced by PostgreSQL (`createTeamLiveEvents`): the dashboards' live updates. */
  readonly events: TeamLiveEvents;
  /** How many push requests store data at once, and how long one waits for its turn (default: ingest-gate.ts's). */
  readonly ingest?: IngestGate | undefined;
  /** The planner's statistics, told of every push (`keepStatistics`); its owner awaits it before closing `sql`. */
  readonly statistics: StatisticsKeeper;
  /** False: a search reads each row from its transcript's start, not through its stored starts (tests compare). */
  readonly searchStarts?: boolean | undefined;
}

/**
 * A query that failed for want of PostgreSQL (stopped, restarting, unreachable, out of connections) as a 503, logged;
 * undefined for any other error. Every request's token is checked in PostgreSQL first, so the dashboard's, the push's
 * and the OTLP routes all fail here when it is gone; a push (client.ts) waits for a 503 to pass.
 */
function lostDatabase(error: unknown): TeamHttpError | undefined {
  const lost = lostDatabaseReason(error);
  if (lost === undefined) return undefined;
  console.error(`agentdash team server: the team's PostgreSQL cannot be reached (${lost})`);
  const message = `the team server cannot reach its database (${lost}): try again in a moment`;
  return new TeamHttpError(503, message, 'TEAM_DB_UNREACHABLE');
}

function onError(error: Error, c: Context): Response {
  if (error instanceof TeamHttpError) return teamErrorResponse(c, error);
  const lost = lostDatabase(error);
  if (lost) return teamErrorResponse(c, lost);
  console.error('agentdash team server: request failed:', error);
  return c.json({ success: false, error: 'internal error' }, 500);
}

export function createTeamApp(deps: TeamAppDeps): Hono<TeamEnv> {
  const app = new Hono<TeamEnv>();
  app.onError(onError);
  app.notFound((c) => c.json({ success: false, error: 'not found' }, 404));
  // A push, forget or export this process took changed the data now: its own cached answers are stale at once, not
  // only when its NOTIFY comes back on the listening connection (a moment later, longer on a loaded machine).
  let changedHere = 0;
  const changes: MiddlewareHandler<TeamEnv> = async (c, next) => {
    await next();
    if (c.req.method === 'POST' && c.res.status < 400) changedHere++;
  };
  app.use('/api/team/v1/*', changes);
  app.use('/v1/*', changes);
  const push = pushRoutes(deps.sql, deps.statistics, deps.ingest ?? createIngestGate());
  push.onError(onError);
  app.route('/api/team/v1', push);
  // OTLP/HTTP on the team port, behind the same TLS and tokens as a push
  const otlp = otlpRoutes(deps.sql);
  otlp.onError(onError);
  app.route('/', otlp);

  const dashboard = createApp({
    paths: [],
    host: deps.host ?? '127.0.0.1',
    port: deps.port ?? 4317,
    checkHost: false,
    assetsDir: deps.assetsDir,
    queries: teamQueries(deps.sql, Date.now, { searchStarts: deps.searchStarts }),
    sessions: teamSessionHost(deps.sql),
    // every push announced on this database (through any team server) changes it, and one taken here at once
    dataVersion: () => `${deps.events.generation()}.${changedHere}`,
    events: deps.events,
    team: {
      tiers: async () => {
        const rows = await deps.sql<{ tier: string }[]>`select distinct tier from sessions`;
        return shareTiers.filter((t) => rows.some((r) => r.tier === t));
      },
    },
  });
  const reads = new Hono<TeamEnv>();
  reads.onError(onError);
  reads.use('*', teamAuth(deps.sql, { browser: true }));
  reads.use('/api/*', knownPeople(deps.sql));
  // the dashboard's person and device filter: everyone who pushed or may push, with their devices
  reads.get('/api/team/people', async (c) => {
    const rows = await deps.sql<{ name: string; devices: string[] | null; sessions: number }[]>`
      select p.name,
        (select array_agg(d.name order by d.name) from devices d
          where d.person_id = p.id and (d.revoked_at is null or exists (select 1 from sessions s where s.device_id = d.id)))
          as devices,
        (select count(*)::int from sessions s where s.person_id = p.id) as sessions
      from people p order by p.name`;
    const body: TeamPeopleResponse = {
      people: rows.map((r) => ({ name: r.name, devices: r.devices ?? [], sessions: r.sessions })),
    };
    return c.json(body);
  });
  reads.route('/api/telemetry', teamTelemetryRoutes(deps.sql));
  reads.route('/', dashboard);
  app.route('/', reads);
  return app;
}

/**
 * `?person=` and `?device=` (`person/device`, or a device's name) naming no one on the team, or a device not the
 * person's when both are given, are a 400 naming those there are (at most `NAMED`): a typo ("Ann" for "ann") answered
 * an empty list and $0, read as no activity (a review).
 */
function knownPeople(sql: Sql): MiddlewareHandler<TeamEnv> {
  return async (c, next) => {
    const person = c.req.query('person');
    const device = c.req.query('device');
    if (!person && !device) return next();
    const people = (await sql<{ name: string }[]>`select name from people order by name`).map((r) => r.name);
    if (person && !people.includes(person)) {
      throw new TeamHttpError(
        400,
        `person ${JSON.stringify(person)} is not on this team (${named(people)})`,
        'BAD_QUERY',
      );
    }
    if (device) {
      const devices = (
        await sql<{ name: string }[]>`select p.name || '/' || d.name as name from devices d
          join people p on p.id = d.person_id order by 1`
      ).map((r) => r.name);
      // a bare device name is the person's when one is given (the list's filter joins them: whereOf)
      const full = device.includes('/') || !person ? device : `${person}/${device}`;
      const mine = person ? devices.filter((d) => d.startsWith(`${person}/`)) : devices;
      const known = full.includes('/') ? mine.includes(full) : mine.some((d) => d.slice(d.indexOf('/') + 1) === full);
      if (!known) {
        const why = person
          ? `is not ${person}'s (their devices: ${named(mine)})`
          : `is not on this team (${named(devices)})`;
        throw new TeamHttpError(400, `device ${JSON.stringify(device)} ${why}`, 'BAD_QUERY');
      }
    }
    await next();
  };
}

/** At most this many names in a 400's list. */
const NAMED = 20;

const named = (names: readonly string[]): string =>
  names.length === 0
    ? 'none'
    : `${names.slice(0, NAMED).join(', ')}${names.length > NAMED ? ` and ${names.length - NAMED} more` : ''}`;
