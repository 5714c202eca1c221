import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { serve } from '@hono/node-server';
import type { AgentIndex } from './agent-index.js';
import { createApp } from './app.js';
import { createLiveEvents } from './live.js';
import { isLoopbackHost } from './security.js';

/**
 * The address to show for a bound host: itself, or for a wildcard bind (0.0.0.0, ::) this machine's first external
 * address (IPv4 first), which other machines and a browser can actually open.
 */
export function reachableHost(host: string): string {
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
}

export interface RunningServer {
  readonly url: string;
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
  const events = createLiveEvents({ index: options.index, paths: options.paths });
  let handler: ((request: Request) => Response | Promise<Response>) | undefined;
  const server = serve({
    fetch: (request: Request) => (handler ? handler(request) : new Response('starting', { status: 503 })),
    hostname: host,
    port: options.port,
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => resolve((server.address() as AddressInfo).port));
  });
  const app = createApp({ index: options.index, paths: options.paths, host, port, token: options.token, events });
  handler = (request) => app.fetch(request);
  const shown = reachableHost(host);
  const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}/`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        events.close();
        const s = server as unknown as { closeAllConnections?: () => void; close: (cb: () => void) => void };
        s.closeAllConnections?.();
        s.close(() => resolve());
      }),
  };
}
