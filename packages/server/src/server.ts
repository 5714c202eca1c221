import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import type { RefreshProgress, RefreshReport } from '@agentdash/index';
import { serve } from '@hono/node-server';
import type { AgentIndex } from './agent-index.js';
import type { FolderWithoutTranscripts, IndexStatus } from './api-types.js';
import { createApp } from './app.js';
import {
  readyStatus,
  refreshErrorText,
  startBackgroundIndex,
  watchBuildElsewhere,
  watchIndexFile,
} from './index-state.js';
import { createLiveEvents } from './live.js';
import { startOtlpListener } from './otlp/listen.js';
import { isLoopbackHost } from './security.js';
import { watchInWorker } from './watch-in-worker.js';
import { workerScript } from './worker-script.js';
import { createWorkers } from './worker-session-host.js';

/**
 * The address to show for a bound host: itself, or for a wildcard bind (0.0.0.0, ::) this machine's first external
 * address (IPv4 first), which other machines and a browser can actually open.
 */
function reachableHost(host: string): string {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare !== '0.0.0.0' && bare !== '::') return bare;
  const external = Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((info) => !info.internal);
  const v4 = external.find((info) => info.family === 'IPv4');
  const v6 = external.find((info) => info.family === 'IPv6' && !info.address.startsWith('fe80'));
  return v4?.address ?? v6?.address ?? hostname();
}

export interface StartServerOptions {
  readonly index: AgentIndex;
  readonly paths: string[];
  readonly host: string;
  readonly port: number;
  readonly token?: string;
  /** The paths are the bundled sample sessions: `/api/health` says so (`samples`), and the dashboard shows it. */
  readonly samples?: boolean;
  /** The folders named that hold no transcript, once known: `/api/health` says so (`noTranscripts`). */
  readonly noTranscripts?: () => readonly FolderWithoutTranscripts[] | undefined;
  /**
   * Bring the index up to date in the background once listening (default true): the server answers at once, the
   * sessions list fills as files are read, and `/api/health` and SSE report the progress.
   */
  readonly refreshOnStart?: boolean;
  /** Told of every step of that first refresh (e.g. for a progress bar). */
  readonly onProgress?: (progress: RefreshProgress) => void;
  /**
   * Load sessions and run index queries in worker threads (default true when the index is a file and the worker is
   * built).
   */
  readonly sessionWorker?: boolean;
  /** Awaited before each file of that first refresh is read (tests hold the import with it). */
  readonly beforeFile?: (file: string) => Promise<void>;
  /** `serve --redact` (screen sharing): every secret in every answer redacted (docs/secrets.md). */
  readonly redact?: boolean;
  /** Also receive OTLP/HTTP telemetry on this loopback port (otlp/listen.ts; 0 picks one); none when undefined. */
  readonly otlpPort?: number;
}

export interface RunningServer {
  readonly url: string;
  /** The first refresh's report once it is over (undefined when it failed or was not asked for). */
  readonly indexed: Promise<RefreshReport | undefined>;
  /** The first refresh's progress. */
  indexStatus(): IndexStatus;
  /** The OTLP receiver's endpoint, or why it is not listening (a port in use); undefined when not asked for. */
  readonly otlp?: { readonly endpoint: string } | { readonly error: unknown };
  close(): Promise<void>;
}

/**
 * Serve the dashboard and API over `index`, watching `paths` for live updates. Binds `host` (127.0.0.1 by
 * default in the CLI); port 0 picks a free port. A non-loopback host requires a token.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const host = options.host || '127.0.0.1';
  if (!isLoopbackHost(host) && (options.token === undefined || options.token === '')) {
    throw new Error(`binding to ${host} (not a loopback address) requires a token`);
  }
  // Watching is set up in a worker thread when built: over tens of thousands of files it takes seconds.
  const watchScript = workerScript('watch-worker.js');
  // The last live refresh's error, once one ran: the index's status says it (the dashboard shows it) in place of the
  // first build's, so a failure shows until a refresh works again, and one that works clears an earlier failure.
  let liveError: string | null | undefined;
  const events = createLiveEvents({
    index: options.index,
    paths: options.paths,
    watch: watchScript === undefined,
    onRefreshed: (error) => {
      const next = error === undefined ? null : refreshErrorText(error);
      if (next === liveError) return;
      liveError = next;
      events.publish({ type: 'index-progress', index: indexStatus() });
    },
  });
  const watcher = watchScript ? watchInWorker(options.paths, (files) => void events.refresh(files)) : undefined;
  let handler: ((request: Request) => Response | Promise<Response>) | undefined;
  const server = serve({
    fetch: (request: Request) => (handler ? handler(request) : new Response('starting', { status: 503 })),
    hostname: host,
    port: options.port,
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => resolve((server.address() as AddressInfo).port));
  }).catch(async (error: unknown) => {
    // Nothing listens (a port in use): the watcher's thread and the live events would keep the process alive, so
    // `agentdash serve` would print why and never exit.
    events.close();
    await watcher?.close();
    throw error;
  });
  const background =
    options.refreshOnStart === false
      ? undefined
      : startBackgroundIndex({
          index: options.index,
          paths: options.paths,
          publish: (message) => events.publish(message),
          onProgress: options.onProgress,
          beforeFile: options.beforeFile,
        });
  // A transcript written after the first index looked and before the watcher watched would wait for the next change
  // in its folder: once both are done, one refresh (cheap on a warm index) takes what came between.
  if (watcher !== undefined) {
    void Promise.all([watcher.ready, background?.done])
      .then(() => events.refresh())
      .catch(() => undefined);
  }
  const ready = readyStatus();
  const firstStatus = background ? background.status : () => ready;
  // An `agentdash index --rebuild` in another process: the lists it empties fill in again as it commits.
  const elsewhere = watchBuildElsewhere(options.index, (message) => events.publish(message));
  // The index's file deleted or replaced under this server: said until it restarts (no refresh clears it).
  let fileGone: string | undefined;
  const indexFile = watchIndexFile(options.index.dbPath, (reason) => {
    fileGone = reason;
    events.publish({ type: 'index-progress', index: indexStatus() });
  });
  function indexStatus(): IndexStatus {
    const first = firstStatus();
    if (fileGone !== undefined) return { ...first, error: fileGone };
    if (first.state === 'ready') {
      const other = elsewhere.status();
      if (other !== undefined) return other;
    }
    return liveError === undefined || first.state !== 'ready' ? first : { ...first, error: liveError };
  }
  // Sessions are loaded and paged in a worker thread when the index is a file (a `:memory:` one is this thread's).
  // Queries (lists, search, statistics) run in another one, so neither waits for the other nor blocks this thread.
  const inWorkers = options.sessionWorker !== false && options.index.dbPath !== ':memory:';
  const workers = inWorkers
    ? createWorkers({ dbPath: options.index.dbPath, redact: options.redact === true })
    : undefined;
  const sessions = workers?.sessions;
  const queries = workers?.queries;
  // Telemetry stored tells the list (a session known only from telemetry shows at once) and each session's page.
  const otlp =
    options.otlpPort === undefined
      ? undefined
      : await startOtlpListener({
          index: options.index,
          port: options.otlpPort,
          onStored: (_signal, sessionIds, report) => {
            if (report.stored === 0) return;
            events.publish({ type: 'sessions-changed' });
            for (const sessionId of sessionIds) events.publish({ type: 'session-updated', sessionId });
          },
        }).catch((error: unknown) => ({ error }));
  const app = createApp({
    sessions,
    queries,
    index: options.index,
    paths: options.paths,
    host,
    port,
    token: options.token,
    samples: options.samples,
    noTranscripts: options.noTranscripts,
    events,
    indexStatus,
    redact: options.redact === true,
    otlp:
      otlp === undefined ? undefined : 'error' in otlp ? { error: String(otlp.error) } : { endpoint: otlp.endpoint },
  });
  handler = (request) => app.fetch(request);
  const shown = reachableHost(host);
  const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}/`;
  return {
    url,
    indexed: background ? background.done : Promise.resolve(undefined),
    indexStatus,
    ...(otlp === undefined ? {} : { otlp: 'error' in otlp ? otlp : { endpoint: otlp.endpoint } }),
    close: async () => {
      elsewhere.close();
      indexFile.close();
      events.close();
      // The threads end too before this settles: one still loading ends once loaded (`stopWorker`), and its files
      // (the index's) are closed by then, so a caller may remove them.
      const threads = [
        otlp !== undefined && !('error' in otlp) ? otlp.close() : undefined,
        sessions?.close(),
        queries?.close(),
        watcher?.close(),
      ];
      const s = server as unknown as { closeAllConnections?: () => void; close: (cb: () => void) => void };
      s.closeAllConnections?.();
      await Promise.all([new Promise<void>((resolve) => s.close(() => resolve())), ...threads]);
    },
  };
}
