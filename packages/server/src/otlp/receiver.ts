/**
 * The OTLP/HTTP receiver: `POST /v1/logs`, `/v1/traces`, `/v1/metrics` with an OTLP/JSON or OTLP/protobuf body,
 * gzip-compressed or not (what `OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318` sends). A body that is not OTLP
 * gets 400 with a one-line reason, a body over the cap 413; either leaves the index as it was. Its own Hono app on
 * its own port, so the exporter never waits on the dashboard nor the dashboard on it.
 */
import { type OtelRecord, type OtelSignal, otlpEncodingOf, signalOfOtlpPath } from '@agentdash/core';
import type { StoreReport } from '@agentdash/index';
import { Hono } from 'hono';
import { hostCheck, securityHeaders } from '../security.js';
import { type IngestOutcome, type IngestRequest, ingestOtlp } from './ingest.js';

/** Largest request body accepted, as sent (compressed or not). */
export const OTLP_MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface OtlpReceiverOptions {
  /** Stores one request's records (one transaction); throws only on a storage failure (then 503, to be retried). */
  readonly store: (records: readonly OtelRecord[]) => StoreReport;
  /** The bound host and port (Host-header check against DNS rebinding). */
  readonly host: string;
  readonly port: number;
  readonly maxBodyBytes?: number;
  /**
   * Decodes and stores one request elsewhere (the receiver's worker thread, `ingest-worker.ts`), so that neither
   * holds this thread; default: `store` here, after decoding here.
   */
  readonly ingest?: (request: IngestRequest) => Promise<IngestOutcome>;
  /** Told when a request's body has been read, before it is decoded (tests interleave dashboard requests there). */
  readonly onBody?: (bytes: number) => void;
  /** Told of every stored request (the sessions it named), e.g. to refresh open pages. */
  readonly onStored?: (signal: OtelSignal, sessionIds: ReadonlySet<string>, report: StoreReport) => void;
}

class TooLarge extends Error {}

/** The body, read up to `max` bytes; TooLarge past it (without reading the rest). */
/**
 * The body, or `TooLarge` past `max` bytes. A body too large is still read to its end (up to `DRAIN_FACTOR` × `max`,
 * discarded) before the 413 is sent: a client still writing when the server answers and closes gets a connection
 * reset instead of the 413 (as an exporter sending one oversized batch would, and read as a network error).
 */
async function readCapped(request: Request, max: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array();
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  const chunks: Uint8Array[] = [];
  let size = 0;
  let tooLarge = Number.isFinite(declared) && declared > max;
  const reader = request.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.byteLength;
    if (size > max) tooLarge = true;
    if (size > max * DRAIN_FACTOR) {
      await reader.cancel();
      break;
    }
    if (!tooLarge) chunks.push(next.value);
  }
  if (tooLarge) throw new TooLarge();
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** How far past the cap a body too large is still read (and discarded) so that its sender gets the 413. */
const DRAIN_FACTOR = 8;

/** One line, for a 400's body and the exporter's log. */
function reasonLine(message: string): string {
  return `${message.replace(/[\r\n]+/g, ' ').slice(0, 300)}\n`;
}

export function createOtlpApp(options: OtlpReceiverOptions): Hono {
  const max = options.maxBodyBytes ?? OTLP_MAX_BODY_BYTES;
  const app = new Hono();
  app.use('*', securityHeaders());
  app.use('*', hostCheck(options.host, options.port));
  app.post('/v1/:signal{logs|traces|metrics}', async (c) => {
    const signal = signalOfOtlpPath(c.req.path) as OtelSignal;
    const contentType = c.req.header('content-type') ?? '';
    const encoding = otlpEncodingOf(contentType);
    let body: Uint8Array;
    try {
      body = await readCapped(c.req.raw, max);
    } catch (error) {
      if (error instanceof TooLarge) return c.text(reasonLine(`body over ${max} bytes`), 413);
      return c.text(reasonLine('body could not be read'), 400);
    }
    options.onBody?.(body.byteLength);
    const request: IngestRequest = {
      signal,
      contentType,
      contentEncoding: c.req.header('content-encoding') ?? '',
      body,
    };
    const outcome = options.ingest ? await options.ingest(request) : ingestOtlp(request, options.store);
    if (!outcome.ok) return c.text(reasonLine(outcome.reason), outcome.status);
    options.onStored?.(signal, new Set(outcome.sessionIds), outcome.report);
    // An empty Export*ServiceResponse: full success, in the request's encoding.
    if (encoding === 'protobuf') return c.body(new Uint8Array(), 200, { 'content-type': 'application/x-protobuf' });
    return c.json({});
  });
  app.all('/v1/:signal{logs|traces|metrics}', (c) => c.text(reasonLine('OTLP/HTTP takes POST'), 405));
  app.notFound((c) => c.text(reasonLine('not an OTLP/HTTP path: /v1/logs, /v1/traces or /v1/metrics'), 404));
  return app;
}
