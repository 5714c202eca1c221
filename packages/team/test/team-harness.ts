/** A team server over a real PostgreSQL and a real HTTP port, with a person and a device to push as. */
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AgentIndex } from '@agentdash/index';
import { type ServerType, serve } from '@hono/node-server';
import { type PushSession, type ShareTier, TEAM_PAYLOAD_VERSION } from '../src/contract.js';
import { openTeamDb, type TeamDb } from '../src/pg/db.js';
import { migrate } from '../src/pg/migrations.js';
import { addDevice, addPerson } from '../src/pg/people.js';
import { keepStatistics, type StatisticsKeeper } from '../src/pg/statistics.js';
import { usageRollupOf } from '../src/pg/usage-rollup.js';
import { usageSumsOf } from '../src/pg/usage-sums.js';
import { TeamClient } from '../src/push/client.js';
import { FileCache } from '../src/push/file-cache.js';
import { type PushReport, push } from '../src/push/push.js';
import type { IngestGate } from '../src/server/ingest-gate.js';
import { createTeamApp, type TeamAppDeps } from '../src/server/team-app.js';
import { createTeamLiveEvents } from '../src/server/team-live.js';
import { startPostgres, type TestPostgres } from './pg-harness.js';

export interface TeamFixture {
  readonly pg: TestPostgres;
  readonly db: TeamDb;
  readonly url: string;
  /** ann/laptop's push token. */
  readonly token: string;
  /** The server's planner statistics (`settled` once no analysis runs or is due). */
  readonly statistics: StatisticsKeeper;
  /**
   * `index`'s sessions pushed as `agentdash push` does, every one at `tier` (default full), from the device of
   * `token` (default ann/laptop's) named `hostname` (default laptop).
   */
  pushIndex(
    index: AgentIndex,
    options?: {
      readonly token?: string;
      readonly tier?: ShareTier;
      readonly hostname?: string;
      /** The laptop's chunk cache (default: none). */
      readonly cache?: FileCache;
    },
  ): Promise<PushReport>;
  /** `POST /push/sessions` of `sessions` at this build's payload version, with ann/laptop's token unless given. */
  pushSessions(
    sessions: readonly PushSession[],
    options?: { token?: string | null },
  ): Promise<{ status: number; json: { success: boolean; data?: unknown; error?: string; code?: string } }>;
  request(
    method: string,
    path: string,
    body?: unknown,
    options?: { token?: string | null; gzip?: boolean; raw?: Uint8Array | string; headers?: Record<string, string> },
  ): Promise<{ status: number; json: { success: boolean; data?: unknown; error?: string; code?: string } }>;
  /**
   * `GET path` with ann/laptop's token, answered by a second team app over the same database built with `deps`
   * (`searchStarts: false`: the way a search read before stored starts), through Hono's own `request` (no server).
   */
  getVia(
    deps: Pick<TeamAppDeps, 'searchStarts'>,
    path: string,
  ): Promise<{ status: number; json: { success: boolean; data?: unknown; error?: string } }>;
  /**
   * `work()` (an erase or a forget done as the CLI does, beside the server), then wait until the server heard its
   * announcement (`NOTIFY` arrives on another connection, a moment later): answers it kept before are dropped by then.
   */
  announced<T>(work: () => Promise<T>): Promise<T>;
  /** Every row of every table, as text: equal before and after a refused push. */
  dump(): Promise<string>;
  /** The rows where the sessions list's copy (`session_list`) and the sessions differ: none, ever. */
  listDrift(): Promise<unknown[]>;
  /**
   * The rows where usage's sums (`usage_sums`) and the responses' sums differ, or the sums per project
   * (`usage_rollup`) and those of `usage_sums` with their sessions: none, ever.
   */
  sumsDrift(): Promise<unknown[]>;
  close(): Promise<void>;
}

const TABLES = [
  'people',
  'devices',
  'viewers',
  'sessions',
  'calls',
  'responses',
  'files',
  'file_chunks',
  'chunks',
  'search_words',
  'search_docs',
  'session_list',
  'usage_sums',
  'usage_rollup',
];

/** The sessions as the list's copy holds them (migrations 9, 10, 18, 29): each column, the summary's figures and time. */
const LISTED = `select person_id, uid, device_id, agent, project_hash, project_dir, project_path, title, started_ms,
  ended_ms, models, versions, tool_calls, errors, cost_usd, (body->>'messages')::int, (body->>'expectedErrors')::int,
  (body->>'isLive')::boolean, (body->'time'->>'wallMs')::float8, (body->'time'->>'modelMs')::float8,
  (body->'time'->>'toolMs')::float8, (body->'time'->>'userMs')::float8, (body->'time'->>'idleMs')::float8,
  case when tier = 'summary' then coalesce((body->>'titled')::boolean, (body->>'prompts')::int > 0, false)
    else coalesce(title, '') <> '' end,
  coalesce((body->'header'->'counts'->>'failedRequests')::int, 0)
  from sessions`;

export async function startTeam(options: { readonly ingest?: IngestGate } = {}): Promise<TeamFixture> {
  const pg = await startPostgres();
  const db = await openTeamDb({ url: pg.url, max: 20 });
  await migrate(db.sql, db.schema);
  await addPerson(db.sql, 'ann');
  const { token } = await addDevice(db.sql, 'ann', 'laptop');
  const events = createTeamLiveEvents(db.sql);
  await events.ready;
  const statistics = keepStatistics(db.sql);
  const app = createTeamApp({ sql: db.sql, events, ingest: options.ingest, statistics });
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(info.port));
  });
  const url = `http://127.0.0.1:${port}`;
  /** The apps `getVia` built, by their deps. */
  const others = new Map<string, ReturnType<typeof createTeamApp>>();
  const fixture: TeamFixture = {
    pg,
    db,
    url,
    token,
    statistics,
    pushIndex: (index, { token: as = token, tier = 'full', hostname = 'laptop', cache } = {}) =>
      push({
        index,
        client: new TeamClient({ url, token: as }),
        cache: cache ?? FileCache.load(undefined),
        policy: { defaultTier: tier, projects: [] },
        device: { agentdash: '0.1.0', hostname, platform: 'linux' },
      }),
    pushSessions: (sessions, opts) =>
      fixture.request('POST', '/api/team/v1/push/sessions', { version: TEAM_PAYLOAD_VERSION, sessions }, opts),
    async request(method, path, body, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      const bearer = opts.token === undefined ? token : opts.token;
      if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
      let payload: Uint8Array | string | undefined =
        opts.raw ?? (body === undefined ? undefined : JSON.stringify(body));
      if (payload !== undefined && opts.gzip) {
        payload = gzipSync(payload);
        headers['content-encoding'] = 'gzip';
      }
      if (payload !== undefined && !opts.raw) headers['content-type'] = 'application/json';
      // a connection per request (no keep-alive): a test that blocks the event loop building a huge body must not
      // race the server closing an idle kept-alive socket
      const res = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest(`${url}${path}`, { method, headers, agent: false }, (response) => {
          const parts: Buffer[] = [];
          response.on('data', (d: Buffer) => parts.push(d));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }),
          );
          response.on('error', reject);
        });
        req.on('error', reject);
        req.end(payload);
      });
      return { status: res.status, json: res.text ? JSON.parse(res.text) : {} };
    },
    async getVia(deps, path) {
      const key = JSON.stringify(deps);
      let other = others.get(key);
      if (other === undefined) {
        other = createTeamApp({ sql: db.sql, events, ingest: options.ingest, statistics, ...deps });
        others.set(key, other);
      }
      const res = await other.request(path, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, json: await res.json() };
    },
    async announced(work) {
      const before = events.generation();
      const result = await work();
      for (const start = Date.now(); events.generation() === before; ) {
        if (Date.now() - start > 10_000) throw new Error('the change was not announced within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return result;
    },
    async dump() {
      const parts: string[] = [];
      for (const table of TABLES) {
        const rows = await db.sql.unsafe(`select t.*, t.xmin::text as xmin from ${table} t order by 1, 2, 3`);
        parts.push(`${table}: ${JSON.stringify(rows)}`);
      }
      return parts.join('\n');
    },
    async listDrift() {
      return [
        ...(await db.sql.unsafe(`${LISTED} except all select * from session_list`)),
        ...(await db.sql.unsafe(`select * from session_list except all ${LISTED}`)),
      ];
    },
    async sumsDrift() {
      const sums = usageSumsOf('responses');
      const rollup = usageRollupOf('usage_sums');
      return [
        ...(await db.sql.unsafe(`${sums} except all select * from usage_sums`)),
        ...(await db.sql.unsafe(`select * from usage_sums except all ${sums}`)),
        ...(await db.sql.unsafe(`(${rollup}) except all select * from usage_rollup`)),
        ...(await db.sql.unsafe(`select * from usage_rollup except all (${rollup})`)),
      ];
    },
    async close() {
      events.close();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await statistics.close();
      await db.close();
      await pg.stop();
    },
  };
  return fixture;
}
