/** One session (or query) worker thread as the server sees it: started when asked, stopped when idle or failed. */
import { type MethodOf, type RequestOf, type ResponseOf, WorkerRpcClient } from '@agentdash/index';
import { HttpError } from './http-error.js';
import { httpErrorOfCall, type SessionProtocol } from './session-protocol.js';
import { startBuiltWorker } from './worker-script.js';

type Method = MethodOf<SessionProtocol>;

export interface WorkerClient {
  ask<M extends Method>(method: M, request: RequestOf<SessionProtocol, M>): Promise<ResponseOf<SessionProtocol, M>>;
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
 * starts it again. A stopped thread gives its whole heap back: the sessions it kept and its garbage (a thread kept
 * alive held its heap's high-water mark long after the dashboards that raised it had left: issue 36, item 9).
 */
export const WORKER_IDLE_MS = 60_000;

/** The session a request is about, if any. */
function sessionOf(method: Method, request: RequestOf<SessionProtocol, Method>): string | undefined {
  if (method === 'invalidate') return undefined;
  if ('sessionId' in request) return request.sessionId;
  return 'row' in request ? request.row.id : undefined;
}

/** One worker thread over the index file at `dbPath`, started on the first request and again after a crash. */
export function workerClient(
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
  let rpc: WorkerRpcClient<SessionProtocol> | undefined;
  let holds = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  /** Threads stopped for being idle and not ended yet (`close` waits for them too). */
  const idleStops = new Set<Promise<void>>();
  const idleMs = options.idleMs ?? WORKER_IDLE_MS;
  const busy = () => rpc?.pending ?? 0;
  /** Stop the thread once nothing is asked of it for `idleMs` (checked whenever it becomes idle). */
  const idleLater = () => {
    clearTimeout(idleTimer);
    idleTimer = undefined;
    if (!rpc || busy() > 0 || holds > 0 || !Number.isFinite(idleMs)) return;
    const r = rpc;
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (rpc !== r || r.pending > 0 || holds > 0) return;
      rpc = undefined;
      loaded = new Set();
      const stopped = r.terminate();
      idleStops.add(stopped);
      void stopped.finally(() => idleStops.delete(stopped));
    }, idleMs);
    idleTimer.unref();
  };
  let loaded = new Set<string>();
  /** Unanswered requests per session. */
  const inFlight = new Map<string, number>();
  let closed = false;

  const ensure = (): WorkerRpcClient<SessionProtocol> => {
    if (rpc) return rpc;
    const w = startBuiltWorker(script, {
      workerData: { dbPath, cacheShare: options.cacheShare ?? 1, role: options.role, redact: options.redact === true },
    });
    w.unref();
    const r = new WorkerRpcClient<SessionProtocol>(w, {
      loaded: (keys) => {
        if (rpc === r) loaded = new Set(keys);
      },
    });
    w.on('error', (error) => {
      console.error('agentdash: worker thread failed:', error.message);
    });
    // Its calls are failed (500) by then; a thread stopped on purpose (idle, closed) was replaced or is gone already.
    w.on('exit', () => {
      if (rpc !== r) return;
      rpc = undefined;
      loaded = new Set();
    });
    rpc = r;
    return r;
  };

  return {
    ask: (method, request) => {
      if (closed) return Promise.reject(new HttpError(503, 'server is stopping'));
      clearTimeout(idleTimer);
      idleTimer = undefined;
      const r = ensure();
      const sessionId = sessionOf(method, request);
      if (sessionId !== undefined) inFlight.set(sessionId, (inFlight.get(sessionId) ?? 0) + 1);
      const settled = () => {
        if (sessionId !== undefined) {
          const left = (inFlight.get(sessionId) ?? 1) - 1;
          if (left > 0) inFlight.set(sessionId, left);
          else inFlight.delete(sessionId);
        }
        if (rpc === r && r.pending === 0) idleLater();
      };
      return r.call(method, request).then(
        (value) => {
          settled();
          return value;
        },
        (error: unknown) => {
          settled();
          throw httpErrorOfCall(error);
        },
      );
    },
    start: () => {
      if (closed) return;
      ensure();
      // a thread started ahead and never asked is idle too
      if (busy() === 0) idleLater();
    },
    loaded: () => loaded,
    forget: (sessionId) => {
      if (sessionId === undefined) loaded = new Set();
      else loaded.delete(sessionId);
    },
    running: () => rpc !== undefined,
    busy,
    asking: (sessionId) => inFlight.has(sessionId),
    hold: () => {
      holds++;
      clearTimeout(idleTimer);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds--;
        if (busy() === 0) idleLater();
      };
    },
    close: async () => {
      closed = true;
      clearTimeout(idleTimer);
      const r = rpc;
      rpc = undefined;
      loaded = new Set();
      inFlight.clear();
      await Promise.all([r?.terminate(new HttpError(500, 'server is stopping')), ...idleStops]);
    },
  };
}
