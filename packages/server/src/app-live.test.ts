/**
 * The server's live updates (appended lines, sessions that appear, scoped refreshes, SSE over a real port) and the
 * CLI's bundled odd real-world transcripts served by the app.
 */
import { appendFile, cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../test/app-harness.js';
import type { CallsResponse, EventsPage, SessionDetail, SessionsResponse } from './api-types.js';
import { createApp } from './app.js';
import { createLiveEvents } from './live.js';
import { startServer } from './server.js';

const here = dirname(fileURLToPath(import.meta.url));
const PORT = 4317;
const HOST = { host: `127.0.0.1:${PORT}` };

let t: TestApp;
beforeAll(async () => {
  t = await appOver([SAMPLES], { port: PORT });
});
afterAll(async () => {
  await t?.close();
});

describe('live', () => {
  it('notices appended lines and reports the session as updated', async () => {
    const home = join(t.tmp, 'live-home');
    const project = join(home, 'projects', '-home-user-proj-shell');
    await cp(join(SAMPLES, 'projects', '-home-user-proj-shell'), project, { recursive: true });
    const file = (await readdir(project)).find((f) => f.endsWith('.jsonl'))!;
    const liveIndex = openIndex({ dbPath: join(t.tmp, 'live.sqlite') });
    try {
      await liveIndex.refresh([home]);
      const events = createLiveEvents({ index: liveIndex, paths: [home], debounceMs: 50 });
      const seen: string[] = [];
      const updated = new Promise<string>((done) =>
        events.subscribe((m) => {
          seen.push(m.type);
          if (m.type === 'session-updated') done(m.sessionId);
        }),
      );
      const lines = (await readFile(join(project, file), 'utf8')).trim().split('\n');
      const last = JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>;
      const extra = {
        ...last,
        type: 'user',
        uuid: '00000000-0000-4000-8000-000000000001',
        parentUuid: last.uuid ?? null,
        timestamp: new Date().toISOString(),
        message: { role: 'user', content: 'a new prompt appended live' },
      };
      await appendFile(join(project, file), `${JSON.stringify(extra)}\n`);
      const id = await Promise.race([
        updated,
        new Promise<string>((_, fail) => setTimeout(() => fail(new Error(`no update; saw ${seen.join(',')}`)), 10_000)),
      ]);
      expect(id).toBe(file.replace(/\.jsonl$/, ''));
      expect(seen).toContain('sessions-changed');
      events.close();
    } finally {
      liveIndex.close();
    }
  });

  it('the list, its counts and facets follow a session that appears (nothing stale is kept)', async () => {
    const home = join(t.tmp, 'growing-home');
    await cp(join(SAMPLES, 'projects', '-home-user-proj-shell'), join(home, 'projects', '-home-user-proj-shell'), {
      recursive: true,
    });
    const growing = openIndex({ dbPath: join(t.tmp, 'growing.sqlite') });
    try {
      await growing.refresh([home]);
      const events = createLiveEvents({ index: growing, paths: [home], watch: false });
      const live = createApp({
        index: growing,
        paths: [home],
        host: '127.0.0.1',
        port: PORT,
        assetsDir: join(t.tmp, 'no-assets'),
        events,
      });
      const list = async () =>
        (await (await live.request('/api/sessions?limit=1', { headers: HOST })).json()) as SessionsResponse;
      const before = await list();
      expect(await list()).toEqual(before);
      await cp(join(SAMPLES, 'projects', '-home-user-proj-web'), join(home, 'projects', '-home-user-proj-web'), {
        recursive: true,
      });
      await events.refresh();
      const after = await list();
      const all = growing.listSessions({ paths: [home] });
      expect(after.total).toBe(all.length);
      expect(after.total).toBeGreaterThan(before.total);
      expect(after.totals.toolCalls).toBe(all.reduce((n, r) => n + r.toolCalls, 0));
      expect(after.facets.projects.length).toBe(before.facets.projects.length + 1);
      events.close();
    } finally {
      growing.close();
    }
  });

  it('refreshes only the project folder of a known file that grew, and everything when a new file appears', async () => {
    const home = join(t.tmp, 'scoped-home');
    const shell = join(home, 'projects', '-home-user-proj-shell');
    await cp(join(SAMPLES, 'projects', '-home-user-proj-shell'), shell, { recursive: true });
    await cp(join(SAMPLES, 'projects', '-home-user-proj-web'), join(home, 'projects', '-home-user-proj-web'), {
      recursive: true,
    });
    const real = openIndex({ dbPath: join(t.tmp, 'scoped.sqlite') });
    const refreshed: string[][] = [];
    // The real index, recording what each refresh is asked to read.
    const recording: AgentIndex = Object.assign(Object.create(real) as AgentIndex, {
      refresh: (paths: readonly string[], o?: Parameters<AgentIndex['refresh']>[1]) => {
        refreshed.push([...paths]);
        return real.refresh(paths, o);
      },
    });
    try {
      await real.refresh([home]);
      const events = createLiveEvents({ index: recording, paths: [home], watch: false });
      const seen: string[] = [];
      events.subscribe((m) => seen.push(m.type === 'session-updated' ? `updated ${m.sessionId}` : m.type));

      const file = (await readdir(shell)).find((f) => f.endsWith('.jsonl'))!;
      const sessionId = file.replace(/\.jsonl$/, '');
      await appendFile(
        join(shell, file),
        `${JSON.stringify({ type: 'user', uuid: 'scoped-1', parentUuid: null, sessionId, timestamp: new Date().toISOString(), message: { role: 'user', content: 'more' } })}\n`,
      );
      await events.refresh([join(shell, file)]);
      expect(refreshed.at(-1)).toEqual([shell]);
      expect(seen).toEqual([`updated ${sessionId}`, 'sessions-changed']);

      const fresh = '11111111-2222-4333-8444-555555555555';
      await writeFile(
        join(shell, `${fresh}.jsonl`),
        `${JSON.stringify({ type: 'user', uuid: 'new-1', parentUuid: null, sessionId: fresh, cwd: '/home/user/proj/shell', timestamp: new Date().toISOString(), message: { role: 'user', content: 'a brand new session' } })}\n`,
      );
      await events.refresh([join(shell, `${fresh}.jsonl`)]);
      expect(refreshed.at(-1)).toEqual([home]);
      expect(real.listSessions({ paths: [home] }).some((s) => s.id === fresh)).toBe(true);
      expect(seen.at(-1)).toBe('sessions-changed');
      events.close();
    } finally {
      real.close();
    }
  });

  it('starts on a free port and serves the API over HTTP with SSE', async () => {
    const server = await startServer({ index: t.index, paths: [SAMPLES], host: '127.0.0.1', port: 0 });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const res = await fetch(`${server.url}api/sessions`);
      expect(res.status).toBe(200);
      const ctl = new AbortController();
      const sse = await fetch(`${server.url}api/events`, { signal: ctl.signal });
      expect(sse.headers.get('content-type')).toContain('text/event-stream');
      const reader = sse.body!.getReader();
      const chunk = await reader.read();
      expect(new TextDecoder().decode(chunk.value)).toContain('event: hello');
      ctl.abort();
    } finally {
      await server.close();
    }
  });
});

describe('odd real-world transcripts (the CLI bundled wild fixtures)', () => {
  const wild = resolve(here, '../../cli/test/fixtures/wild/claude-home');
  let wildTmp: string;
  let wildIndex: AgentIndex;
  let wildApp: ReturnType<typeof createApp>;
  const wildJson = async <T>(path: string): Promise<T> => {
    const res = await wildApp.request(path, { headers: HOST });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  beforeAll(async () => {
    wildTmp = await mkdtemp(join(tmpdir(), 'agentdash-server-wild-'));
    wildIndex = openIndex({ dbPath: join(wildTmp, 'index.sqlite') });
    await wildIndex.refresh([wild]);
    wildApp = createApp({
      index: wildIndex,
      paths: [wild],
      host: '127.0.0.1',
      port: PORT,
      assetsDir: join(t.tmp, 'no-assets'),
    });
  });
  afterAll(async () => {
    wildIndex.close();
    await rm(wildTmp, { recursive: true, force: true });
  });

  it('lists and opens a session whose main file is missing, with its issue', async () => {
    const list = await wildJson<SessionsResponse>('/api/sessions');
    const orphan = list.sessions.find((s) => s.id.startsWith('6c2214d7'));
    expect(orphan?.toolCalls).toBe(1);
    const detail = await wildJson<SessionDetail>(`/api/sessions/${encodeURIComponent(orphan?.id ?? '')}`);
    expect(detail.subagents).toHaveLength(1);
    // Its subagent's events are the main timeline, so it opens with content; the header does not list it again.
    expect(detail.mainFile).toBe(false);
    const other = list.sessions.find((s) => !s.id.startsWith('6c2214d7'));
    expect((await wildJson<SessionDetail>(`/api/sessions/${encodeURIComponent(other?.id ?? '')}`)).mainFile).toBe(true);
    const page = await wildJson<EventsPage>(`/api/sessions/${encodeURIComponent(orphan?.id ?? '')}/events`);
    expect(page.total).toBe(detail.totalEvents);
    expect(page.events.filter((e) => e.kind === 'assistant').length).toBeGreaterThan(0);
    const issues = await wildJson<{ issues: { code: string }[] }>(
      `/api/sessions/${encodeURIComponent(orphan?.id ?? '')}/issues`,
    );
    expect(issues.issues.map((i) => i.code)).toEqual(['missing_main_file']);
  });

  it('names same-id sessions of two folders by <id>@<folder> and opens each', async () => {
    const list = await wildJson<SessionsResponse>('/api/sessions');
    const ids = list.sessions.map((s) => s.id).filter((id) => id.startsWith('full@'));
    expect(ids.sort()).toEqual(['full@checkpoint-a', 'full@checkpoint-b']);
    const titles = await Promise.all(
      ids.map(async (id) => (await wildJson<SessionDetail>(`/api/sessions/${encodeURIComponent(id)}`)).session.title),
    );
    expect(new Set(titles).size).toBe(2);
    // The bare id names both: a conflict the caller can resolve, not a missing session.
    const bare = await wildApp.request('/api/sessions/full', { headers: HOST });
    expect(bare.status).toBe(409);
  });

  it('gives the calls of same-id sessions the title of their own session', async () => {
    const list = await wildJson<SessionsResponse>('/api/sessions');
    const full = list.sessions.filter((s) => s.id.startsWith('full@') && s.toolCalls > 0);
    expect(full.length).toBeGreaterThan(0);
    const { calls } = await wildJson<CallsResponse>('/api/calls?limit=2000');
    for (const s of full) {
      const mine = calls.filter((c) => c.sessionId === s.id);
      expect(mine.length, s.id).toBeGreaterThan(0);
      expect(s.title).not.toBeNull();
      expect(new Set(mine.map((c) => c.sessionTitle)), s.id).toEqual(new Set([s.title]));
    }
  });
});
