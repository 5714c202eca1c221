/**
 * `agentdash serve --team`: migrate the team schema, then listen. Loopback unless someone may hold a token (a person
 * or a viewer exists); HTTPS with `tls` (or behind a reverse proxy, see docs/team.md).
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from '@agentdash/server';
import { type ServerType, serve } from '@hono/node-server';
import { TeamBadInputError } from '../errors.js';
import type { TeamDb } from '../pg/db.js';
import { indexMissingDocs } from '../pg/ingest.js';
import { hasTokenStore } from '../pg/people.js';
import { keepStatistics } from '../pg/statistics.js';
import { cutStoredTelemetry } from '../pg/telemetry-tier.js';
import { createIngestGate, type IngestGateOptions } from './ingest-gate.js';
import { createTeamApp } from './team-app.js';
import { createTeamLiveEvents } from './team-live.js';

export interface TeamServerOptions {
  readonly db: TeamDb;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** PEM files of a certificate and its key: HTTPS. */
  readonly tls?: { readonly cert: string; readonly key: string } | undefined;
  readonly assetsDir?: string | undefined;
  /** How many push requests store data at once (default: ingest-gate.ts). */
  readonly ingest?: IngestGateOptions | undefined;
}

export interface RunningTeamServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function startTeamServer(options: TeamServerOptions): Promise<RunningTeamServer> {
  const { db, host } = options;
  if (!isLoopbackHost(host) && !(await hasTokenStore(db.sql))) {
    throw new TeamBadInputError(
      `--host ${host} is not a loopback address and no one holds a token yet: add a person (agentdash team add-person) or a viewer first`,
    );
  }
  const tls = options.tls ? { cert: readFileSync(options.tls.cert), key: readFileSync(options.tls.key) } : undefined;
  // listening before the port opens: a push accepted from then on reaches the open dashboards
  const events = createTeamLiveEvents(db.sql);
  await events.ready;
  // full-tier sessions stored before their transcripts were searchable, indexed while the server answers
  void indexMissingDocs(db.sql).catch((error: unknown) => {
    console.error('agentdash team server: indexing stored transcripts failed:', error);
  });
  // telemetry an older server stored above its pushed session's tier, cut to it while the server answers
  void cutStoredTelemetry(db.sql).catch((error: unknown) => {
    console.error("agentdash team server: cutting stored telemetry to its sessions' tiers failed:", error);
  });
  let handler: ((request: Request) => Response | Promise<Response>) | undefined;
  const server: ServerType = serve({
    fetch: (request: Request) => (handler ? handler(request) : new Response('starting', { status: 503 })),
    hostname: host,
    port: options.port,
    ...(tls ? { createServer: createHttpsServer, serverOptions: tls } : {}),
  });
  // longer than a reverse proxy's idle keep-alive (nginx, load balancers: 60 s), so the proxy closes first
  const timeouts = server as unknown as { keepAliveTimeout: number; headersTimeout: number };
  timeouts.keepAliveTimeout = 65_000;
  timeouts.headersTimeout = 66_000;
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => resolve((server.address() as AddressInfo).port));
  });
  const statistics = keepStatistics(db.sql);
  const app = createTeamApp({
    sql: db.sql,
    statistics,
    host,
    port,
    assetsDir: options.assetsDir,
    events,
    ingest: createIngestGate(options.ingest),
  });
  handler = (request) => app.fetch(request);
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const url = `${tls ? 'https' : 'http'}://${shown.includes(':') ? `[${shown}]` : shown}:${port}/`;
  return {
    url,
    close: async () => {
      await new Promise<void>((resolve) => {
        // open event streams end first, so closing the connections does not cut a stream mid-message
        events.close();
        const s = server as unknown as { closeAllConnections?: () => void; close: (cb: () => void) => void };
        s.closeAllConnections?.();
        s.close(() => resolve());
      });
      // no analysis starts now, and the one under way ends before the caller closes the database
      await statistics.close();
    },
  };
}
