/**
 * The per-session routes in a worker thread: the worker opens the index itself, loads and keeps sessions, and
 * answers detail, page, call and locate requests, so parsing a 200 MB transcript never blocks the server's event
 * loop (SSE, the sessions list and other requests go on meanwhile).
 */
import { availableParallelism } from 'node:os';
import type { Waterfall } from '@agentdash/core/time';
import type { CallDto, EventsPage, FilesResponse, SessionDetail } from './api-types.js';
import type { IndexQueries } from './index-queries.js';
import { queryMethods, responseMethods } from './index-queries.js';
import type { Answer } from './raw-json.js';
import type { SessionExport } from './session-export.js';
import type { SessionHost } from './session-host.js';
import { fromText, sessionWorkerScript } from './session-protocol.js';
import { type WorkerClient, workerClient } from './session-worker-client.js';

export { sessionWorkerScript } from './session-protocol.js';

/**
 * The API's index queries in their own worker thread; undefined when the worker script is not built. One thread: on
 * two busy cores a second one measured slower (more contention).
 */
export function createWorkerQueries(options: {
  readonly dbPath: string;
  readonly script?: URL;
  /** See `WORKER_IDLE_MS`. */
  readonly idleMs?: number;
}): (IndexQueries & { close(): Promise<void> }) | undefined {
  const script = options.script ?? sessionWorkerScript();
  if (script === undefined) return undefined;
  const client = workerClient(script, options.dbPath, { role: 'queries', ...idleOf(options) });
  client.start();
  const entries = [...queryMethods, ...responseMethods].map((method) => [
    method,
    (...args: unknown[]) => client.ask('query', { method, args }),
  ]);
  return {
    ...(Object.fromEntries(entries) as unknown as IndexQueries),
    close: () => client.close(),
  };
}

/** A session host in worker threads, which also answers the per-session lookups. */
export interface WorkerSessionHost extends SessionHost {
  /**
   * The session lookup of every per-session request, answered by the least busy session worker: in the query
   * worker, a first open waited behind whatever search, statistics or usage query ran there.
   */
  readonly lookups: Pick<IndexQueries, 'getSession'>;
  /** Session threads running now (an idle one is stopped, see `WORKER_IDLE_MS`). */
  threadsRunning(): number;
}

const idleOf = (options: { readonly idleMs?: number }) =>
  options.idleMs === undefined ? {} : { idleMs: options.idleMs };

/**
 * A session host backed by worker threads over the index file at `dbPath`. A session lives in one of them: the one
 * that holds it or is answering about it, else the least busy one, so a first open does not wait behind another
 * session's parse in a busy thread (20 dashboard users opening sessions at once). Undefined when the worker script
 * is not built. A worker that dies fails its pending requests (500) and is started again on the next one.
 */
export function createWorkerSessionHost(options: {
  readonly dbPath: string;
  readonly script?: URL;
  /**
   * Worker threads (default 2, one on a single core). Their session caches share the byte budget. More than two
   * measured slower on two busy cores.
   */
  readonly threads?: number;
  /** `serve --redact`: sessions are loaded with every secret redacted. */
  readonly redact?: boolean;
  /** See `WORKER_IDLE_MS`. */
  readonly idleMs?: number;
}): WorkerSessionHost | undefined {
  const script = options.script ?? sessionWorkerScript();
  if (script === undefined) return undefined;
  const threads = Math.max(1, options.threads ?? Math.min(2, availableParallelism()));
  const clients = Array.from({ length: threads }, () =>
    workerClient(script, options.dbPath, {
      cacheShare: 1 / threads,
      role: 'sessions',
      redact: options.redact === true,
      ...idleOf(options),
    }),
  );
  for (const c of clients) c.start();
  const leastBusy = (preferred: WorkerClient): WorkerClient =>
    clients.reduce((best, c) => (c.busy() < best.busy() ? c : best), preferred);
  const of = (sessionId: string): WorkerClient =>
    clients.find((c) => c.loaded().has(sessionId) || c.asking(sessionId)) ??
    leastBusy(clients[hashOf(sessionId) % clients.length] as WorkerClient);
  return {
    threadsRunning: () => clients.filter((c) => c.running()).length,
    lookups: {
      getSession: (ref, lookup) =>
        leastBusy(clients[0] as WorkerClient).ask('query', { method: 'getSession', args: [ref, lookup] }) as ReturnType<
          IndexQueries['getSession']
        >,
    },
    detail: (row) =>
      of(row.id)
        .ask('detail', { row })
        .then(fromText<Answer<SessionDetail>>),
    page: (sessionId, agent, offset, limit, all) =>
      of(sessionId)
        .ask('page', { sessionId, agent, offset, limit, all })
        .then(fromText<Answer<EventsPage> | undefined>),
    call: (sessionId, callId, chars) =>
      of(sessionId)
        .ask('call', { sessionId, callId, chars })
        .then(fromText<Answer<CallDto> | undefined>),
    locate: (sessionId, callId) => of(sessionId).ask('locate', { sessionId, callId }),
    readIssues: (sessionId) => of(sessionId).ask('readIssues', { sessionId }),
    waterfall: (sessionId) =>
      of(sessionId)
        .ask('waterfall', { sessionId })
        .then(fromText<Answer<Waterfall>>),
    files: (sessionId) =>
      of(sessionId)
        .ask('files', { sessionId })
        .then(fromText<Answer<FilesResponse>>),
    errors: (sessionId) => of(sessionId).ask('errors', { sessionId }),
    exportSession: async (sessionId, format, summary, assetsDir, redact): Promise<SessionExport> => {
      // The export is written in the worker; each batch is asked for when the download wants more.
      const client = of(sessionId);
      const release = client.hold();
      try {
        const opened = await client.ask('exportOpen', {
          sessionId,
          format,
          summary,
          assetsDir,
          redact,
        });
        return {
          redacted: opened.redacted,
          next: async () => {
            const text = await client.ask('exportNext', { stream: opened.stream });
            if (text === undefined) release();
            return text;
          },
          close: () => {
            void client
              .ask('exportClose', { stream: opened.stream })
              .catch(() => undefined)
              .finally(release);
          },
        };
      } catch (error) {
        release();
        throw error;
      }
    },
    find: (sessionId, query) => of(sessionId).ask('find', { sessionId, query }),
    isLoaded: (sessionId) => of(sessionId).loaded().has(sessionId),
    invalidate: (sessionId) => {
      // every thread: which one holds the session is known only from its replies
      for (const client of clients) {
        client.forget(sessionId);
        if (client.running()) void client.ask('invalidate', { sessionId }).catch(() => undefined);
      }
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
    },
  };
}

/** A small stable hash of a string (FNV-1a), to give each session one worker. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The worker threads `startServer` serves with: the session workers, and the query worker for lists, search and
 * statistics, with the per-session lookups taken by the session workers. Undefined when the worker script is not
 * built.
 */
export function createWorkers(options: {
  readonly dbPath: string;
  readonly script?: URL;
  readonly threads?: number;
  readonly redact?: boolean;
  readonly idleMs?: number;
}):
  | {
      readonly sessions: WorkerSessionHost;
      readonly queries: IndexQueries & { close(): Promise<void> };
    }
  | undefined {
  const sessions = createWorkerSessionHost(options);
  const queries = sessions && createWorkerQueries(options);
  if (!sessions || !queries) return undefined;
  return { sessions, queries: { ...queries, ...sessions.lookups } };
}
