/**
 * Sessions spread over two session workers, with the per-session lookups answered there (as `startServer` serves):
 * the event pages the dashboard gets are the very text the server answers in one thread, for every session of the
 * bundled samples and, when present, of ../shared/wild.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { sampleListed } from '@agentdash/testing/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventsPage, SessionDetail } from './api-types.js';
import { createApp } from './app.js';
import { createWorkers, sessionWorkerScript } from './worker-session-host.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');
const wild = resolve(here, '../../../../shared/wild/claude-home');
const script = sessionWorkerScript();
if (!script) console.log('[server] session workers suite skipped: the server package is not built (npm run build)');
if (!existsSync(wild)) console.log('[server] session workers over ../shared/wild skipped: it is not present');

const homes = [
  { name: 'the bundled samples', path: samples, present: true },
  { name: '../shared/wild', path: wild, present: existsSync(wild) },
];
const host = { host: '127.0.0.1:4317' };

describe.skipIf(!script).each(homes)('event pages over two session workers: $name', ({ path, present }) => {
  let tmp: string;
  let index: AgentIndex;
  beforeAll(async () => {
    if (!present) return;
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-workers-'));
    await copyOfIndex([path], join(tmp, 'index.sqlite'));
    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    await index.refresh([path]);
  });
  afterAll(async () => {
    if (!present) return;
    index.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it.skipIf(!present)('are the text one thread answers, every page of every thread, asked all at once', async () => {
    const workers = createWorkers({ dbPath: index.dbPath, threads: 2 })!;
    const common = { index, paths: [path], host: '127.0.0.1', port: 4317, assetsDir: tmp };
    const pooled = createApp({ ...common, sessions: workers.sessions, queries: workers.queries });
    const single = createApp(common);
    const text = async (app: typeof single, url: string) => {
      const res = await app.request(url, { headers: host });
      expect(res.status, url).toBe(200);
      return res.text();
    };
    try {
      // Every session of the samples; a fixed sample of every size of ../shared/wild (all with AGENTDASH_TEST_FULL=1).
      const listed = index.listSessions({ paths: [path] });
      const ids = (path === samples ? listed : sampleListed(listed)).map((s) => s.ref);
      // The threads of each session (main, and every subagent), from the one-thread server's full headers.
      const urls = (
        await Promise.all(
          ids.map(async (id) => {
            const detail = JSON.parse(await text(single, `/api/sessions/${encodeURIComponent(id)}`));
            const { subagents, totalEvents } = detail as SessionDetail;
            const base = `/api/sessions/${encodeURIComponent(id)}/events`;
            const out = [`${base}?offset=0&limit=100`, `${base}?offset=0&limit=100&all=1`];
            for (let offset = 100; offset < totalEvents; offset += 100) out.push(`${base}?offset=${offset}&limit=100`);
            for (const sub of subagents) out.push(`${base}?offset=0&limit=500&agent=${encodeURIComponent(sub.key)}`);
            return out;
          }),
        )
      ).flat();
      // First opens of every session at once, as many users do: they spread over both workers.
      const answers = await Promise.all(urls.map((url) => text(pooled, url)));
      for (const [i, url] of urls.entries()) expect(answers[i], url).toBe(await text(single, url));
      expect(
        answers.map((a) => (JSON.parse(a) as EventsPage).events.length).reduce((n, k) => n + k, 0),
      ).toBeGreaterThan(ids.length);
      expect(ids.every((id) => workers.sessions.isLoaded(id))).toBe(true);
    } finally {
      await workers.sessions.close();
      await workers.queries.close();
    }
  });
});
