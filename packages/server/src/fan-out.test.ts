/**
 * What the server does for many clients at once (issue 36, item 9): a change goes to every open event stream
 * serialized once, a stream that does not read holds each distinct change once, and an idle worker thread is
 * stopped (its heap given back) and started again by the next request. Speed is measured in bench/sse-load.mjs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openIndex } from '@agentdash/index';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { describe, expect, it, vi } from 'vitest';
import type { LiveMessage } from './api-types.js';
import { createApp } from './app.js';
import { type IndexQueries, localQueries } from './index-queries.js';
import { ListCache } from './list-cache.js';
import { createLiveEvents } from './live.js';
import { answerValue } from './raw-json.js';
import { createWorkers, sessionWorkerScript } from './worker-session-host.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');
const HOST = { host: '127.0.0.1:4317' };
const built = sessionWorkerScript() !== undefined;

/** Read a stream until `done(text)` holds; the text read so far. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, done: (text: string) => boolean) {
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text;
}

describe('event streams', () => {
  it('serialize a change once for every open stream', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'agentdash-fan-out-'));
    const index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    const events = createLiveEvents({ index, paths: [samples], watch: false });
    try {
      const app = createApp({ index, paths: [samples], host: '127.0.0.1', port: 4317, assetsDir: tmp, events });
      const controllers = Array.from({ length: 8 }, () => new AbortController());
      const readers = await Promise.all(
        controllers.map(async (ctl) => {
          const res = await app.request('/api/events', { headers: HOST, signal: ctl.signal });
          const reader = (res.body as ReadableStream<Uint8Array>).getReader();
          await readUntil(reader, (t) => t.includes('event: hello'));
          return reader;
        }),
      );
      let serialized = 0;
      const message = {
        type: 'session-updated',
        sessionId: 'fan-out-1',
        toJSON() {
          serialized++;
          return { type: 'session-updated', sessionId: 'fan-out-1' };
        },
      } as LiveMessage;
      events.publish(message);
      const got = await Promise.all(readers.map((r) => readUntil(r, (t) => t.includes('fan-out-1'))));
      for (const text of got) {
        expect(text).toBe('event: session-updated\ndata: {"type":"session-updated","sessionId":"fan-out-1"}\n\n');
      }
      expect(serialized).toBe(1);
      for (const ctl of controllers) ctl.abort();
    } finally {
      events.close();
      index.close();
      await rm(tmp, { recursive: true, force: true });
    }
  });

  it('hold each distinct change once for a stream that does not read', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'agentdash-fan-out-'));
    const index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    const events = createLiveEvents({ index, paths: [samples], watch: false });
    try {
      const app = createApp({ index, paths: [samples], host: '127.0.0.1', port: 4317, assetsDir: tmp, events });
      const ctl = new AbortController();
      const res = await app.request('/api/events', { headers: HOST, signal: ctl.signal });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      await readUntil(reader, (t) => t.includes('event: hello'));
      // 3 × 500 changes of two sessions and the list, sent before the stream reads any
      for (let i = 0; i < 500; i++) {
        events.publish({ type: 'session-updated', sessionId: 'a' });
        events.publish({ type: 'session-updated', sessionId: 'b' });
        events.publish({ type: 'sessions-changed' });
      }
      events.publish({ type: 'session-updated', sessionId: 'last' });
      const text = await readUntil(reader, (t) => t.includes('"last"'));
      const kinds = [...text.matchAll(/^data: (.*)$/gm)].map((m) => m[1]);
      expect(kinds.length).toBeLessThanOrEqual(4 + 1);
      expect(new Set(kinds).size).toBe(kinds.length);
      ctl.abort();
    } finally {
      events.close();
      index.close();
      await rm(tmp, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!built)(built ? 'idle worker threads' : 'idle worker threads (skipped: server not built)', () => {
  it('are stopped, giving their memory back, and started again by the next request', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'agentdash-idle-workers-'));
    // the run's index of the samples, copied (built once per run, as a cold refresh builds it)
    await copyOfIndex([samples], join(tmp, 'index.sqlite'));
    const index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    await index.refresh([samples]);
    const workers = createWorkers({ dbPath: index.dbPath, idleMs: 50 });
    try {
      if (!workers) throw new Error('workers not built');
      const id = index.listSessions({})[0]?.id ?? '';
      const first = answerValue(await workers.sessions.page(id, undefined, 0, 10, false));
      expect(first?.events.length).toBeGreaterThan(0);
      expect(workers.sessions.isLoaded(id)).toBe(true);
      await vi.waitFor(() => expect(workers.sessions.threadsRunning()).toBe(0), { timeout: 10_000, interval: 20 });
      // the sessions it held went with it, and the next request is answered as before
      expect(workers.sessions.isLoaded(id)).toBe(false);
      const again = answerValue(await workers.sessions.page(id, undefined, 0, 10, false));
      expect(again).toEqual(first);
      expect(workers.sessions.threadsRunning()).toBeGreaterThan(0);
    } finally {
      await workers?.sessions.close();
      await workers?.queries.close();
      index.close();
      await rm(tmp, { recursive: true, force: true });
    }
  });
});

describe('ListCache answers kept past a change', () => {
  it('are given out until they are dropped, then the caller is told to say the list changed', () => {
    let now = 1000;
    let version = 'v1';
    const cache = new ListCache(
      10_000,
      () => now,
      () => false,
      () => version,
    );
    const told: number[] = [];
    cache.onKeptServed = (until) => told.push(until);
    let computed = 0;
    const search = () => cache.get('sessions?q=x', () => ++computed, 5000);
    const list = () => cache.get('sessions', () => ++computed);
    expect([search(), list()]).toEqual([1, 2]);
    // a change: the list is computed again at once, the search answer is kept (and the caller told until when)
    version = 'v2';
    cache.clear();
    now = 2000;
    expect([search(), list()]).toEqual([1, 3]);
    expect(told).toEqual([6000]);
    // once dropped, the search is computed again, and kept for 5 s from then
    now = 6000;
    expect(search()).toBe(4);
    version = 'v3';
    now = 7000;
    expect(search()).toBe(4);
    expect(told).toEqual([6000, 11000]);
  });

  it('keeps a slow answer from when it came, not from when it was asked', async () => {
    let now = 0;
    const cache = new ListCache(
      10_000,
      () => now,
      () => false,
      () => 'v1',
    );
    let resolve: (value: number) => void = () => undefined;
    const first = cache.get('sessions?q=x', () => new Promise<number>((done) => (resolve = done)), 5000);
    now = 8000;
    resolve(1);
    await first;
    cache.clear();
    now = 9000;
    expect(await cache.get('sessions?q=x', () => Promise.resolve(2), 5000)).toBe(1);
  });
});

describe('the sessions list under live changes', () => {
  it('checks whether every session is in scope again only when the number of sessions changes', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'agentdash-covers-'));
    const index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    const events = createLiveEvents({ index, paths: [samples], watch: false });
    try {
      await index.refresh([samples]);
      const local = localQueries(index);
      const scopedTotals: unknown[] = [];
      const queries: IndexQueries = {
        ...local,
        sessionTotals: (filter) => {
          if (filter?.paths) scopedTotals.push(filter);
          return local.sessionTotals(filter);
        },
      };
      const app = createApp({
        index,
        paths: [samples],
        host: '127.0.0.1',
        port: 4317,
        assetsDir: tmp,
        events,
        queries,
      });
      const list = async () => {
        const res = await app.request('/api/sessions?limit=5', { headers: HOST });
        expect(res.status).toBe(200);
        return (await res.json()) as { total: number };
      };
      const first = await list();
      expect(scopedTotals.length).toBe(1);
      // appends: the list is computed again, the scope check is not
      for (let i = 0; i < 3; i++) {
        events.publish({ type: 'sessions-changed' });
        expect(await list()).toEqual(first);
      }
      expect(scopedTotals.length).toBe(1);
    } finally {
      events.close();
      index.close();
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
