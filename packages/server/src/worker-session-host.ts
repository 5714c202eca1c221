/**
 * The per-session routes in a worker thread: the worker opens the index itself, loads and keeps sessions, and
 * answers detail, page, call and locate requests, so parsing a 200 MB transcript never blocks the server's event
 * loop (SSE, the sessions list and other requests go on meanwhile).
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { Waterfall } from '@agentdash/core/time';
import type { CallDto, EventsPage, SessionDetail, SessionRow } from './api-types.js';
import type { ExportFormat } from './export-formats.js';
import { HttpError, type HttpStatus } from './http-error.js';
import type { IndexQueries, QueryMethod, ResponseMethod } from './index-queries.js';
import { queryMethods, responseMethods } from './index-queries.js';
import { type Answer, RawJson } from './raw-json.js';
import type { SessionExport } from './session-export.js';
import type { SessionHost } from './session-host.js';
import { startBuiltWorker, workerScript } from './worker-script.js';

export type WorkerRequest =
  | { readonly id: number; readonly op: 'detail'; readonly row: SessionRow }
  | {
      readonly id: number;
      readonly op: 'page';
      readonly sessionId: string;
      readonly agent: string | undefined;
      readonly offset: number;
      readonly limit: number;
      readonly all: boolean;
    }
  | { readonly id: number; readonly op: 'call' | 'locate'; readonly sessionId: string; readonly callId: string }
  | { readonly id: number; readonly op: 'unreadable' | 'waterfall' | 'errors'; readonly sessionId: string }
  | { readonly id: number; readonly op: 'find'; readonly sessionId: string; readonly query: string }
  | { readonly id: number; readonly op: 'invalidate'; readonly sessionId: string | undefined }
  | {
      readonly id: number;
      readonly op: 'exportOpen';
      readonly sessionId: string;
      readonly format: ExportFormat;
      readonly summary: unknown;
      readonly assetsDir: string;
      readonly redact: boolean;
    }
  | { readonly id: number; readonly op: 'exportNext' | 'exportClose'; readonly stream: number }
  | {
      readonly id: number;
      readonly op: 'query';
      readonly method: QueryMethod | ResponseMethod;
      readonly args: readonly unknown[];
    };

/** A reply value serialized in the worker (detail, page, call, waterfall). */
export interface JsonText {
  readonly jsonText: string;
  /** The text as gzip, for clients that take it (large answers only). */
  readonly jsonGzip?: Uint8Array;
}

/** A worker's reply value as an answer: JSON text becomes `RawJson`, anything else stays as it is. */
function fromText<T>(value: unknown): T {
  const reply = value as Partial<JsonText> | null | undefined;
  const text = reply?.jsonText;
  return (typeof text === 'string' ? new RawJson(text, reply?.jsonGzip) : value) as T;
}

/** `loaded`: the sessions the worker holds, when they changed since its previous reply (else absent). */
export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown; readonly loaded: readonly string[] | undefined }
  | {
      readonly id: number;
      readonly ok: false;
      readonly status: HttpStatus;
      readonly message: string;
      /** The operational error's stable code, when one (see `toHttpError`). */
      readonly code: string | undefined;
      readonly loaded: readonly string[] | undefined;
    };

/** The built session worker script (see `workerScript`). */
export function sessionWorkerScript(): URL | undefined {
  return workerScript('session-worker.js');
}

type Pending = { resolve: (value: unknown) => void; reject: (error: unknown) => void };
type Request = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface WorkerClient {
  ask<T>(request: Request): Promise<T>;
  /** Start the thread now (it opens the index and loads its modules), so the first request does not wait. */
  start(): void;
  readonly loaded: () => ReadonlySet<string>;
  /** Drop a session (or all) from the mirror of what the worker holds, until its next reply. */
  forget(sessionId: string | undefined): void;
  readonly running: () => boolean;
  /** Requests sent to the thread and not answered yet. */
  readonly busy: () => number;
  /** Whether a request about this session waits for its answer (its load may be under way there). */
  readonly asking: (sessionId: string) => boolean;
  /** Keep the thread while something streams from it between requests (an export being downloaded). */
  hold(): () => void;
  close(): Promise<void>;
}

/**
 * How long a worker thread may sit idle (no request, nothing streaming) before it is stopped; the next request
 * starts it again. A stopped thread gives its whole heap back: the sessions it kept and its garbage (after 50
 * dashboards left, the server stayed 240 MB above where it was before them: issue 36, item 9).
 */
export const WORKER_IDLE_MS = 60_000;

/** The session a request is about, if any. */
const sessionOf = (request: Request): string | undefined =>
  request.op === 'invalidate'
    ? undefined
    : 'sessionId' in request
      ? request.sessionId
      : 'row' in request
        ? request.row.id
        : undefined;

/** One worker thread over the index file at `dbPath`, started on the first request and again after a crash. */
function workerClient(
  script: URL,
  dbPath: string,
  options: {
    readonly cacheShare?: number;
    /** What the thread is for (`sessions`, `queries`), for profilers and monitors reading `workerData.role`. */
    readonly role: string;
    /** `serve --redact`: sessions are loaded with every secret redacted. */
    readonly redact?: boolean;
    readonly idleMs?: number;
  },
): WorkerClient {
  let worker: Worker | undefined;
  let nextId = 1;
  let holds = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  const idleMs = options.idleMs ?? WORKER_IDLE_MS;
  /** Stop the thread once nothing is asked of it for `idleMs` (checked whenever it becomes idle). */
  const idleLater = () => {
    clearTimeout(idleTimer);
    idleTimer = undefined;
    if (!worker || pending.size > 0 || holds > 0 || !Number.isFinite(idleMs)) return;
    const w = worker;
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (worker !== w || pending.size > 0 || holds > 0) return;
      worker = undefined;
      loaded = new Set();
      void w.terminate();
    }, idleMs);
    idleTimer.unref();
  };
  const pending = new Map<number, Pending>();
  let loaded = new Set<string>();
  /** Unanswered requests per session. */
  const inFlight = new Map<string, number>();
  let closed = false;

  const failAll = (message: string) => {
    for (const p of pending.values()) p.reject(new HttpError(500, message));
    pending.clear();
    inFlight.clear();
    loaded = new Set();
  };

  const ensure = (): Worker => {
    if (worker) return worker;
    const w = startBuiltWorker(script, {
      workerData: { dbPath, cacheShare: options.cacheShare ?? 1, role: options.role, redact: options.redact === true },
    });
    w.unref();
    w.on('message', (reply: WorkerReply) => {
      if (reply.loaded !== undefined) loaded = new Set(reply.loaded);
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.value);
      else p.reject(new HttpError(reply.status, reply.message, reply.code));
      if (pending.size === 0) idleLater();
    });
    w.on('error', (error) => {
      console.error('agentdash: worker thread failed:', error.message);
    });
    w.on('exit', () => {
      // a thread stopped on purpose (idle, closed) was replaced or is gone already: its successor's requests stand
      if (worker !== w) return;
      worker = undefined;
      failAll('a worker thread stopped');
    });
    worker = w;
    return w;
  };

  return {
    ask: <T>(request: Request): Promise<T> => {
      if (closed) return Promise.reject(new HttpError(503, 'server is stopping'));
      const id = nextId++;
      clearTimeout(idleTimer);
      idleTimer = undefined;
      const w = ensure();
      const sessionId = sessionOf(request);
      if (sessionId !== undefined) inFlight.set(sessionId, (inFlight.get(sessionId) ?? 0) + 1);
      const settled = () => {
        if (sessionId === undefined) return;
        const left = (inFlight.get(sessionId) ?? 1) - 1;
        if (left > 0) inFlight.set(sessionId, left);
        else inFlight.delete(sessionId);
      };
      return new Promise<T>((resolve, reject) => {
        pending.set(id, {
          resolve: (value) => {
            settled();
            resolve(value as T);
          },
          reject: (error) => {
            settled();
            reject(error);
          },
        });
        w.postMessage({ ...request, id });
      });
    },
    start: () => {
      if (closed) return;
      ensure();
      // a thread started ahead and never asked is idle too
      if (pending.size === 0) idleLater();
    },
    loaded: () => loaded,
    forget: (sessionId) => {
      if (sessionId === undefined) loaded = new Set();
      else loaded.delete(sessionId);
    },
    running: () => worker !== undefined,
    busy: () => pending.size,
    asking: (sessionId) => inFlight.has(sessionId),
    hold: () => {
      holds++;
      clearTimeout(idleTimer);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds--;
        if (pending.size === 0) idleLater();
      };
    },
    close: async () => {
      closed = true;
      clearTimeout(idleTimer);
      const w = worker;
      worker = undefined;
      failAll('server is stopping');
      if (w) await w.terminate();
    },
  };
}

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
    (...args: unknown[]) => client.ask({ op: 'query', method, args }),
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
   * worker, a first open waited behind whatever search, statistics or usage query ran there (100–500 ms).
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
        leastBusy(clients[0] as WorkerClient).ask({ op: 'query', method: 'getSession', args: [ref, lookup] }),
    },
    detail: (row) =>
      of(row.id)
        .ask({ op: 'detail', row })
        .then(fromText<Answer<SessionDetail>>),
    page: (sessionId, agent, offset, limit, all) =>
      of(sessionId)
        .ask({ op: 'page', sessionId, agent, offset, limit, all })
        .then(fromText<Answer<EventsPage> | undefined>),
    call: (sessionId, callId) =>
      of(sessionId)
        .ask({ op: 'call', sessionId, callId })
        .then(fromText<Answer<CallDto> | undefined>),
    locate: (sessionId, callId) => of(sessionId).ask({ op: 'locate', sessionId, callId }),
    unreadable: (sessionId) => of(sessionId).ask({ op: 'unreadable', sessionId }),
    waterfall: (sessionId) =>
      of(sessionId)
        .ask({ op: 'waterfall', sessionId })
        .then(fromText<Answer<Waterfall>>),
    errors: (sessionId) => of(sessionId).ask({ op: 'errors', sessionId }),
    exportSession: async (sessionId, format, summary, assetsDir, redact): Promise<SessionExport> => {
      // The export is written in the worker; each batch is asked for when the download wants more.
      const client = of(sessionId);
      const release = client.hold();
      try {
        const opened = await client.ask<{ stream: number; redacted: number }>({
          op: 'exportOpen',
          sessionId,
          format,
          summary,
          assetsDir,
          redact,
        });
        return {
          redacted: opened.redacted,
          next: async () => {
            const text = await client.ask<string | undefined>({ op: 'exportNext', stream: opened.stream });
            if (text === undefined) release();
            return text;
          },
          close: () => {
            void client
              .ask({ op: 'exportClose', stream: opened.stream })
              .catch(() => undefined)
              .finally(release);
          },
        };
      } catch (error) {
        release();
        throw error;
      }
    },
    find: (sessionId, query) => of(sessionId).ask({ op: 'find', sessionId, query }),
    isLoaded: (sessionId) => of(sessionId).loaded().has(sessionId),
    invalidate: (sessionId) => {
      // every thread: which one holds the session is known only from its replies
      for (const client of clients) {
        client.forget(sessionId);
        if (client.running()) void client.ask({ op: 'invalidate', sessionId }).catch(() => undefined);
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
