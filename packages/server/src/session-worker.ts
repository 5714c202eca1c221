/** Worker thread entry: loads sessions from the index at `workerData.dbPath` and answers the per-session routes. */
import { parentPort, workerData } from 'node:worker_threads';
import { announceLoaded, openIndex, type RequestOf, serveRpc } from '@agentdash/index';
import { runQuery } from './index-queries.js';
import { RawJson } from './raw-json.js';
import type { SessionExport } from './session-export.js';
import { CACHE_BYTES, createLocalSessionHost, SessionViews } from './session-host.js';
import { errorDataOfRequest, type JsonText, type SessionProtocol } from './session-protocol.js';

const port = parentPort;
if (port === null) throw new Error('session-worker.js runs as a worker thread');
// Its modules are evaluated: the thread may be stopped from now on (`stopWorker`).
announceLoaded();
const { dbPath, cacheShare, redact } = workerData as { dbPath: string; cacheShare?: number; redact?: boolean };
const index = openIndex({ dbPath });
// Several session workers share the cache's byte budget.
const views = new SessionViews(index, undefined, Math.round(CACHE_BYTES * (cacheShare ?? 1)), redact === true);
const host = createLocalSessionHost(index, views);

/** Exports being written, by stream number; at most a few (an abandoned download's goes first). */
const exports = new Map<number, SessionExport>();
const MAX_EXPORTS = 8;
let nextStream = 1;

const openExport = async (request: RequestOf<SessionProtocol, 'exportOpen'>) => {
  const opened = await host.exportSession(
    request.sessionId,
    request.format,
    request.summary,
    request.assetsDir,
    request.redact,
  );
  const stream = nextStream++;
  exports.set(stream, opened);
  for (const [old, abandoned] of exports) {
    if (exports.size <= MAX_EXPORTS) break;
    abandoned.close();
    exports.delete(old);
  }
  return { stream, redacted: opened.redacted };
};

const nextOfExport = async (stream: number): Promise<string | undefined> => {
  const text = await exports.get(stream)?.next();
  if (text === undefined) exports.delete(stream);
  return text;
};

/**
 * A value as JSON text for the reply (see `fromText` in session-protocol.ts), with its gzip bytes when it is large
 * (compressed here, once per kept page, not on the server's event loop); undefined stays undefined.
 */
const asText = (value: unknown): JsonText | undefined => {
  if (value === undefined) return undefined;
  const json = value instanceof RawJson ? value : RawJson.of(value);
  return json.compressible ? { jsonText: json.text, jsonGzip: json.gzipSync() } : { jsonText: json.text };
};

/** The loaded sessions, when they changed since the last answer (each answer carrying a list of hundreds is costly). */
let sentChanges = -1;
/** Tell the server which sessions this thread holds, before the answer that changed them. */
async function answered<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    if (views.changes !== sentChanges) {
      sentChanges = views.changes;
      rpc.notify('loaded', views.keys());
    }
  }
}

// Answers are serialized here (`asText`), so the server's event loop sends the text as it is (no structured clone of
// a large graph to rebuild, no JSON.stringify there).
const rpc = serveRpc<SessionProtocol>(
  port,
  {
    detail: ({ row }) => answered(async () => asText(await host.detail(row))),
    page: (r) => answered(async () => asText(await host.page(r.sessionId, r.agent, r.offset, r.limit, r.all))),
    call: (r) => answered(async () => asText(await host.call(r.sessionId, r.callId, r.chars))),
    waterfall: (r) => answered(async () => asText(await host.waterfall(r.sessionId))),
    files: (r) => answered(async () => asText(await host.files(r.sessionId))),
    locate: (r) => answered(() => host.locate(r.sessionId, r.callId)),
    readIssues: (r) => answered(() => host.readIssues(r.sessionId)),
    errors: (r) => answered(() => host.errors(r.sessionId)),
    find: (r) => answered(() => host.find(r.sessionId, r.query)),
    invalidate: (r) =>
      answered(() => {
        host.invalidate(r.sessionId);
        return undefined;
      }),
    exportOpen: (r) => answered(() => openExport(r)),
    exportNext: (r) => answered(() => nextOfExport(r.stream)),
    exportClose: (r) =>
      answered(() => {
        exports.get(r.stream)?.close();
        exports.delete(r.stream);
        return undefined;
      }),
    query: (r) => answered(() => runQuery(index, r.method, r.args)),
  },
  // Operational errors (an ambiguous reference, a busy index…) keep their status and code across the boundary.
  { notices: {}, errorData: errorDataOfRequest },
);
