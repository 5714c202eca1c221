import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { AgentIndex } from './agent-index.js';
import { createApp } from './app.js';
import { createLiveEvents } from './live.js';
import { isLoopbackHost } from './security.js';

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
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}/`;
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
