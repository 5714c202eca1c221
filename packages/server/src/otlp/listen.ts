/**
 * `serve`'s OTLP/HTTP listener: the receiver on its own port (4318, the OTLP/HTTP default, on loopback), storing
 * into the served index.
 */
import type { AddressInfo } from 'node:net';
import type { OtelSignal } from '@agentdash/core';
import type { AgentIndex, StoreReport } from '@agentdash/index';
import { serve } from '@hono/node-server';
import { isLoopbackHost } from '../security.js';
import { createOtlpApp } from './receiver.js';

/** The OTLP/HTTP port exporters use when told only a host. */
export const DEFAULT_OTLP_PORT = 4318;

export interface OtlpListenerOptions {
  readonly index: AgentIndex;
  /** Loopback only: telemetry carries commands and file paths. */
  readonly host?: string;
  readonly port: number;
  readonly maxBodyBytes?: number;
  readonly onStored?: (signal: OtelSignal, sessionIds: ReadonlySet<string>, report: StoreReport) => void;
}

export interface OtlpListener {
  /** The endpoint to give `OTEL_EXPORTER_OTLP_ENDPOINT` (no trailing slash). */
  readonly endpoint: string;
  readonly port: number;
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
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => resolve((server.address() as AddressInfo).port));
  });
  const app = createOtlpApp({
    store: (records) => options.index.telemetry.store(records),
    host,
    port,
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.onStored === undefined ? {} : { onStored: options.onStored }),
  });
  handler = (request) => app.fetch(request);
  return {
    endpoint: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        const s = server as unknown as { closeAllConnections?: () => void; close: (cb: () => void) => void };
        s.closeAllConnections?.();
        s.close(() => resolve());
      }),
  };
}
