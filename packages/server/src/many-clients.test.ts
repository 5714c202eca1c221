/**
 * The server under many dashboards (issue 36, item 9), over a real HTTP server: large answers go out compressed once
 * for every client that takes gzip (the same JSON as uncompressed), and event streams that close give their
 * listeners back. Speed and memory are measured in bench/sse-load.mjs, never here.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { createLiveEvents, type LiveEvents } from './live.js';
import { acceptsGzip } from './raw-json.js';
import { createWorkers, sessionWorkerScript } from './worker-session-host.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');
const built = sessionWorkerScript() !== undefined;
if (!built) console.log('[server] many clients: event pages from session workers skipped (server not built)');

/** The bytes of a GET as they came over the wire (not decoded), with the response headers. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((done, fail) => {
    get(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', fail);
    }).on('error', fail);
  });
}

/** Live events that count their listeners and say when that count reaches a number. */
function countingEvents(live: LiveEvents) {
  let open = 0;
  const waiters: { readonly at: number; readonly done: () => void }[] = [];
  const check = () => {
    for (const w of waiters.splice(0)) {
      if (open === w.at) w.done();
      else waiters.push(w);
    }
  };
  const events: LiveEvents = {
    ...live,
    subscribe(listener, onClose) {
      open++;
      const unsubscribe = live.subscribe(listener, onClose);
      check();
      return () => {
        unsubscribe();
        open--;
        check();
      };
    },
  };
  return {
    events,
    open: () => open,
    /** Resolves once exactly `n` listeners are subscribed. */
    when: (n: number) =>
      new Promise<void>((done) => {
        waiters.push({ at: n, done });
        check();
      }),
  };
}

describe('many clients over a real HTTP server', () => {
  let tmp: string;
  let index: AgentIndex;
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-many-clients-'));
    // the run's index of the samples, copied (built once per run, as a cold refresh builds it)
    await copyOfIndex([samples], join(tmp, 'index.sqlite'));
    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    await index.refresh([samples]);
  });
  afterAll(async () => {
    index.close();
    await rm(tmp, { recursive: true, force: true });
  });

  async function listen(events?: LiveEvents) {
    const workers = built ? createWorkers({ dbPath: index.dbPath, threads: 1 }) : undefined;
    let port = 0;
    const server = serve({ fetch: (request) => app.fetch(request), hostname: '127.0.0.1', port: 0 });
    await new Promise<void>((done) => server.once('listening', done));
    port = (server.address() as AddressInfo).port;
    const app = createApp({
      index,
      paths: [samples],
      host: '127.0.0.1',
      port,
      assetsDir: tmp,
      ...(workers ? { sessions: workers.sessions, queries: workers.queries } : {}),
      ...(events ? { events } : {}),
    });
    return {
      base: `http://127.0.0.1:${port}`,
      close: async () => {
        await workers?.sessions.close();
        await workers?.queries.close();
        (server as unknown as { closeAllConnections(): void }).closeAllConnections();
        await new Promise((done) => server.close(done));
      },
    };
  }

  it('send large answers as gzip to clients that take it: the same JSON, compressed', async () => {
    const server = await listen();
    try {
      const list = await rawGet(`${server.base}/api/sessions?limit=100`, {});
      const id = (JSON.parse(list.body.toString()) as { sessions: { id: string }[] }).sessions[0]?.id as string;
      const urls = ['/api/sessions?limit=100', '/api/stats', '/api/usage?tz=UTC', `/api/sessions/${id}/events`];
      for (const url of urls) {
        const plain = await rawGet(server.base + url, {});
        const zipped = await rawGet(server.base + url, { 'accept-encoding': 'gzip, deflate, br' });
        expect([plain.status, zipped.status], url).toEqual([200, 200]);
        expect(plain.headers['content-encoding'], url).toBeUndefined();
        expect(zipped.headers['content-encoding'], url).toBe('gzip');
        expect(zipped.headers.vary, url).toBe('Accept-Encoding');
        expect(gunzipSync(zipped.body).toString(), url).toBe(plain.body.toString());
        expect(zipped.body.length, url).toBeLessThan(plain.body.length / 2);
        // asked again (a kept answer): the same bytes
        const again = await rawGet(server.base + url, { 'accept-encoding': 'gzip' });
        expect(again.body.equals(zipped.body), url).toBe(true);
      }
      // a small answer is not worth compressing
      const health = await rawGet(`${server.base}/api/health`, { 'accept-encoding': 'gzip' });
      expect(health.headers['content-encoding']).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('give back every listener of event streams that close', async () => {
    const live = createLiveEvents({ index, paths: [samples], watch: false });
    const counting = countingEvents(live);
    const server = await listen(counting.events);
    try {
      // the app's own listener (its answers are dropped on a change) stays
      const before = counting.open();
      expect(before).toBe(1);
      const controllers = Array.from({ length: 20 }, () => new AbortController());
      const streams = await Promise.all(
        controllers.map((ctl) => fetch(`${server.base}/api/events`, { signal: ctl.signal })),
      );
      await counting.when(before + 20);
      for (const ctl of controllers) ctl.abort();
      for (const res of streams) await res.body?.cancel().catch(() => undefined);
      await counting.when(before);
      expect(counting.open()).toBe(before);
    } finally {
      live.close();
      await server.close();
    }
  });
});

describe('acceptsGzip', () => {
  it('reads Accept-Encoding as browsers and clients write it', () => {
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8, *;q=0.1')).toBe(true);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('*')).toBe(true);
  });
});
