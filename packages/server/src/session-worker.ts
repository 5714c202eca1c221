/** Worker thread entry: loads sessions from the index at `workerData.dbPath` and answers the per-session routes. */
import { parentPort, workerData } from 'node:worker_threads';
import { openIndex } from '@agentdash/index';
import { toHttpError } from './http-error.js';
import { runQuery } from './index-queries.js';
import { RawJson } from './raw-json.js';
import type { SessionExport } from './session-export.js';
import { CACHE_BYTES, createLocalSessionHost, SessionViews } from './session-host.js';
import type { JsonText, WorkerReply, WorkerRequest } from './worker-session-host.js';

const port = parentPort;
if (port === null) throw new Error('session-worker.js runs as a worker thread');
const { dbPath, cacheShare, redact } = workerData as { dbPath: string; cacheShare?: number; redact?: boolean };
const index = openIndex({ dbPath });
// Several session workers share the cache's byte budget.
const views = new SessionViews(index, undefined, Math.round(CACHE_BYTES * (cacheShare ?? 1)), redact === true);
const host = createLocalSessionHost(index, views);

/** Exports being written, by stream number; at most a few (an abandoned download's goes first). */
const exports = new Map<number, SessionExport>();
const MAX_EXPORTS = 8;
let nextStream = 1;

const openExport = async (request: Extract<WorkerRequest, { op: 'exportOpen' }>) => {
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
 * A value as JSON text for the reply (see `fromText` in worker-session-host.ts), with its gzip bytes when it is large
 * (compressed here, once per kept page, not on the server's event loop); undefined stays undefined.
 */
const asText = (value: unknown): JsonText | undefined => {
  if (value === undefined) return undefined;
  const json = value instanceof RawJson ? value : RawJson.of(value);
  return json.compressible ? { jsonText: json.text, jsonGzip: json.gzipSync() } : { jsonText: json.text };
};

const answer = async (request: WorkerRequest): Promise<unknown> => {
  switch (request.op) {
    // Serialized here, so the server's event loop sends the text as it is (no structured clone of a large graph to
    // rebuild, no JSON.stringify there).
    case 'detail':
      return asText(await host.detail(request.row));
    case 'page':
      return asText(await host.page(request.sessionId, request.agent, request.offset, request.limit, request.all));
    case 'call':
      return asText(await host.call(request.sessionId, request.callId));
    case 'locate':
      return host.locate(request.sessionId, request.callId);
    case 'unreadable':
      return host.unreadable(request.sessionId);
    case 'waterfall':
      return asText(await host.waterfall(request.sessionId));
    case 'errors':
      return host.errors(request.sessionId);
    case 'find':
      return host.find(request.sessionId, request.query);
    case 'invalidate':
      host.invalidate(request.sessionId);
      return undefined;
    case 'exportOpen':
      return openExport(request);
    case 'exportNext':
      return nextOfExport(request.stream);
    case 'exportClose':
      exports.get(request.stream)?.close();
      exports.delete(request.stream);
      return undefined;
    case 'query':
      return runQuery(index, request.method, request.args);
    default:
      return request satisfies never;
  }
};

/** The loaded sessions, when they changed since the last reply (each reply carrying a list of hundreds is costly). */
let sentChanges = -1;
const loadedNow = (): readonly string[] | undefined => {
  if (views.changes === sentChanges) return undefined;
  sentChanges = views.changes;
  return views.keys();
};

port.on('message', (request: WorkerRequest) => {
  answer(request).then(
    (value) => port.postMessage({ id: request.id, ok: true, value, loaded: loadedNow() } satisfies WorkerReply),
    (error: unknown) => {
      // Operational errors (an ambiguous reference, a busy index…) keep their status and code across the boundary.
      const http = toHttpError(error);
      if (!http) console.error('agentdash: session request failed:', error);
      port.postMessage({
        id: request.id,
        ok: false,
        status: http?.status ?? 500,
        message: http?.message ?? 'internal error',
        code: http?.code,
        loaded: loadedNow(),
      } satisfies WorkerReply);
    },
  );
});
