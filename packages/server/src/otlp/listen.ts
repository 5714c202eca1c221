/**
 * `serve`'s OTLP/HTTP listener: the receiver on its own port (4318, the OTLP/HTTP default, on loopback), storing
 * into the served index.
 */
import type { AddressInfo } from 'node:net';
import type { OtelSignal } from '@agentdash/core';
import type { AgentIndex, StoreReport } from '@agentdash/index';
import { serve } from '@hono/node-server';
import { isLoopbackHost } from '../security.js';
import { startIngestWorker } from './ingest-worker.js';
import { createOtlpApp } from './receiver.js';

/** The OTLP/HTTP port exporters use when told only a host. */
export const DEFAULT_OTLP_PORT = 4318;

/** How long an idle exporter connection is kept open. */
export const OTLP_KEEP_ALIVE_MS = 65_000;

export interface OtlpListenerOptions {
  readonly index: AgentIndex;
  /** Loopback only: telemetry carries commands and file paths. */
  readonly host?: string;
  readonly port: number;
  readonly maxBodyBytes?: number;
  /**
   * Decode and store in a worker thread (default true when the index is a file and the worker is built): the
   * dashboard's thread never decodes nor writes telemetry.
   */
  readonly worker?: boolean;
  /** How long an idle exporter connection is kept open (default `OTLP_KEEP_ALIVE_MS`; tests: a short one). */
  readonly keepAliveMs?: number;
  /** Told when a request's body has been read, before it is decoded (tests). */
  readonly onBody?: (bytes: number) => void;
  readonly onStored?: (signal: OtelSignal, sessionIds: ReadonlySet<string>, report: StoreReport) => void;
}

export interface OtlpListener {
  /** The endpoint to give `OTEL_EXPORTER_OTLP_ENDPOINT` (no trailing slash). */
  readonly endpoint: string;
  readonly port: number;
  readonly inWorker: boolean;
  close(): Promise<void>;
}

export async function startOtlpListener(options: OtlpListenerOptions): Promise<OtlpListener> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new Error(`the OTLP receiver binds loopback only, not ${host}`);
  let handler: ((request: Request) => Response | Promise<Response>) | undefined;
  const server = serve({
    fetch: (request: Request) => (handler ? handler(request) : new Response('starting\n', { status: 503 })),
    hostname: host,
    port: options.port,
  });
  // Node closes a connection idle for 5 s, the very period of an exporter's batches (OTel's default delay), and a
  // busy sender can take as long between two requests: the next export, sent on that connection as it closes, gets a
  // reset, and a POST is not retried. Idle connections are kept past a minute, as the team server keeps them.
  const timeouts = server as unknown as { keepAliveTimeout: number; headersTimeout: number };
  const keepAliveMs = options.keepAliveMs ?? OTLP_KEEP_ALIVE_MS;
  timeouts.keepAliveTimeout = keepAliveMs;
  timeouts.headersTimeout = keepAliveMs + 1000;
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => resolve((server.address() as AddressInfo).port));
  });
  const ingestWorker =
    options.worker !== false && options.index.dbPath !== ':memory:'
      ? startIngestWorker(options.index.dbPath)
      : undefined;
  const app = createOtlpApp({
    store: (records) => options.index.telemetry.store(records),
    ...(ingestWorker === undefined ? {} : { ingest: ingestWorker.ingest }),
    ...(options.onBody === undefined ? {} : { onBody: options.onBody }),
    host,
    port,
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.onStored === undefined ? {} : { onStored: options.onStored }),
  });
  handler = (request) => app.fetch(request);
  return {
    endpoint: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    /** Whether requests are decoded and stored in the worker thread. */
    inWorker: ingestWorker !== undefined,
    close: async () => {
      await new Promise<void>((resolve) => {
        const s = server as unknown as { closeAllConnections?: () => void; close: (cb: () => void) => void };
        s.closeAllConnections?.();
        s.close(() => resolve());
      });
      await ingestWorker?.close();
    },
  };
}
