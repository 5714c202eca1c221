import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentAdapters } from '@agentdash/core';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AgentsResponse,
  CallDto,
  EventsPage,
  SessionDetail,
  SessionsResponse,
  StatsResponse,
} from './api-types.js';
import { createApp } from './app.js';
import { allowedHosts, CONTENT_SECURITY_POLICY } from './security.js';
import { startServer } from './server.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');
const PORT = 4317;
const HOST = { host: `127.0.0.1:${PORT}` };

let tmp: string;
let index: AgentIndex;
let app: ReturnType<typeof createApp>;
let assetsDir: string;

const get = (path: string, headers: Record<string, string> = HOST) => app.request(path, { headers });
const json = async <T>(path: string): Promise<T> => {
  const res = await get(path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-server-'));
  // No built dashboard: these tests ask the API (static.test.ts serves the files).
  assetsDir = join(tmp, 'assets');
  // the run's index of the samples, copied (built once per run, as a cold refresh builds it)
  await copyOfIndex([samples], join(tmp, 'index.sqlite'));
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  await index.refresh([samples]);
  app = createApp({ index, paths: [samples], host: '127.0.0.1', port: PORT, assetsDir });
});

afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

async function sessionWith(predicate: (s: SessionsResponse['sessions'][number]) => boolean) {
  const list = await json<SessionsResponse>('/api/sessions');
  const found = list.sessions.find(predicate);
  if (!found) throw new Error('no matching sample session');
  return found;
}

describe('security', () => {
  it('refuses a Host header that is not the bound address (DNS rebinding)', async () => {
    for (const host of ['evil.example:4317', 'evil.example', '127.0.0.1', '127.0.0.1:1234', '']) {
      const res = await get('/api/sessions', { host });
      expect(res.status, host).toBe(403);
      expect(await res.json()).toEqual({ success: false, error: 'forbidden host' });
    }
    expect((await get('/api/sessions', { host: `localhost:${PORT}` })).status).toBe(200);
    expect((await get('/api/sessions', { host: `127.0.0.1:${PORT}` })).status).toBe(200);
  });

  it('lists the loopback names for a loopback bind, only the host otherwise', () => {
    expect(allowedHosts('127.0.0.1', 80)).toContain('localhost:80');
    expect([...allowedHosts('192.168.1.5', 8080)]).toEqual(['192.168.1.5:8080']);
    const any = allowedHosts('0.0.0.0', 8080);
    expect(any).toContain('127.0.0.1:8080');
    expect(any).toContain(`${hostname().toLowerCase()}:8080`);
    expect(any).not.toContain('evil.example:8080');
  });

  it('sends a strict Content-Security-Policy on API and page responses', async () => {
    // an answer, a page, a 404 and an error (400) alike
    for (const path of ['/api/sessions', '/', '/api/nope', '/api/sessions?limit=x']) {
      const res = await get(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toBe(CONTENT_SECURITY_POLICY);
      expect(csp).toContain("default-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain('img-src');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('checks the token on every request when one is set', async () => {
    const secured = createApp({ index, paths: [samples], host: '0.0.0.0', port: 9000, token: 's3cret', assetsDir });
    const h = { host: '0.0.0.0:9000' };
    expect((await secured.request('/api/sessions', { headers: h })).status).toBe(401);
    expect((await secured.request('/api/sessions?token=wrong', { headers: h })).status).toBe(401);
    expect((await secured.request('/', { headers: h })).status).toBe(401);
    const first = await secured.request('/?token=s3cret', { headers: h });
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe('/');
    const api = await secured.request('/api/sessions?token=s3cret', { headers: h });
    expect(api.status).toBe(200);
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toContain('agentdash_token_9000=s3cret');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const viaCookie = await secured.request('/api/sessions', {
      headers: { ...h, cookie: 'agentdash_token_9000=s3cret' },
    });
    expect(viaCookie.status).toBe(200);
    // a dashboard's cookie on another port (browsers send a host's cookies to every port of it) is not this one's
    const otherPort = await secured.request('/api/sessions', {
      headers: { ...h, cookie: 'agentdash_token_9001=s3cret' },
    });
    expect(otherPort.status).toBe(401);
    const viaBearer = await secured.request('/api/sessions', { headers: { ...h, authorization: 'Bearer s3cret' } });
    expect(viaBearer.status).toBe(200);
    const badBearer = await secured.request('/api/sessions', { headers: { ...h, authorization: 'Bearer s3cre' } });
    expect(badBearer.status).toBe(401);
    // the Host check still applies
    expect((await secured.request('/api/sessions?token=s3cret', { headers: { host: 'evil:9000' } })).status).toBe(403);
  });

  it('refuses to bind a non-loopback address without a token', async () => {
    await expect(startServer({ index, paths: [samples], host: '0.0.0.0', port: 0 })).rejects.toThrow(/token/);
  });
});

describe('agents', () => {
  it('serves every registered agent in registry order, as the registry declares it', async () => {
    const { agents } = await json<AgentsResponse>('/api/agents');
    expect(agents.map((a) => a.id)).toEqual(agentAdapters.map((a) => a.id));
    expect(agents.find((a) => a.id === 'claude')).toEqual({
      id: 'claude',
      label: 'Claude Code',
      resume: ['claude', '--resume'],
      homes: '$CLAUDE_CONFIG_DIR or ~/.claude',
      badge: { dark: '#f2b48f', light: '#8c4315' },
      billingBlocks: true,
    });
    expect(agents.find((a) => a.id === 'gemini')?.resume).toBeNull();
    expect(agents.filter((a) => a.billingBlocks).map((a) => a.id)).toEqual(['claude']);
    // The dashboard's badges, filter and samples notice take these from here: every agent has its own colours.
    expect(new Set(agents.map((a) => a.badge.dark)).size).toBe(agents.length);
  });
});

describe('sessions', () => {
  it('lists sessions with facets, sorted newest first', async () => {
    const body = await json<SessionsResponse>('/api/sessions');
    expect(body.total).toBeGreaterThan(5);
    expect(body.sessions.length).toBe(body.total);
    expect(body.facets.projects).toContain('/home/user/proj/shell');
    expect(body.facets.versions.length).toBeGreaterThan(0);
    const starts = body.sessions.map((s) => s.startedAt ?? '');
    expect([...starts].sort().reverse()).toEqual(starts);
    for (const s of body.sessions) {
      expect(s.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(typeof s.isLive).toBe('boolean');
    }
  });

  it('sorts the whole list by cost on the server: pages of two rows add up to the list in cost order', async () => {
    const all = await json<SessionsResponse>('/api/sessions?limit=1000');
    const costs = all.sessions.map((s) => s.costUsd ?? -1);
    expect(new Set(costs).size).toBeGreaterThan(2);
    for (const dir of ['desc', 'asc'] as const) {
      const paged: number[] = [];
      for (let offset = 0; offset < all.total; offset += 2) {
        const page = await json<SessionsResponse>(`/api/sessions?sort=costUsd&dir=${dir}&limit=2&offset=${offset}`);
        paged.push(...page.sessions.map((s) => s.costUsd ?? -1));
      }
      const sorted = [...costs].sort((a, b) => (dir === 'asc' ? a - b : b - a));
      expect(paged, dir).toEqual(sorted);
    }
  });

  it('gives a session that billed no response (an API error before any) a cost of 0, not unknown', async () => {
    const list = await json<SessionsResponse>('/api/sessions?limit=1000');
    const costOf = (id: string) => list.sessions.find((s) => s.id === id)?.costUsd;
    const detail = await json<SessionDetail>('/api/sessions/4da1eb3d');
    expect([costOf('4da1eb3d-852a-4da6-8e3f-0bacc4f73990'), costOf('698d1a6c-7a08-4876-946c-c3e76a9e2edd')]).toEqual([
      0, 0,
    ]);
    expect([detail.session.costUsd, detail.session.unpricedModels]).toEqual([0, []]);
  });

  it('filters by project, errors, version and date', async () => {
    const shell = await json<SessionsResponse>('/api/sessions?project=/home/user/proj/shell');
    expect(shell.total).toBeGreaterThan(0);
    expect(shell.sessions.every((s) => s.projectPath === '/home/user/proj/shell')).toBe(true);
    const all = await json<SessionsResponse>('/api/sessions?limit=1000');
    const errors = await json<SessionsResponse>('/api/sessions?hasErrors=true');
    // a real error: a call's, or a request to the model that failed
    const erred = (s: SessionsResponse['sessions'][number]) => s.errors > s.expectedErrors || (s.apiErrors ?? 0) > 0;
    expect(errors.sessions.every(erred)).toBe(true);
    expect(errors.total).toBe(all.sessions.filter(erred).length);
    const version = all.facets.versions[0]!;
    const byVersion = await json<SessionsResponse>(`/api/sessions?version=${version}`);
    expect(byVersion.sessions.every((s) => s.versions.includes(version))).toBe(true);
    const future = await json<SessionsResponse>('/api/sessions?since=2999-01-01');
    expect(future.total).toBe(0);
    expect((await get('/api/sessions?since=not-a-date')).status).toBe(400);
  });

  it('searches through the full-text index with snippets', async () => {
    const body = await json<SessionsResponse>('/api/sessions?q=background');
    expect(body.total).toBeGreaterThan(0);
    expect(body.sessions[0]?.snippet).toContain('\u0001');
  });

  it('returns one session with its subagents and a paged timeline', async () => {
    const row = await sessionWith((s) => s.projectPath === '/home/user/proj/subagents' && s.toolCalls > 2);
    const detail = await json<SessionDetail>(`/api/sessions/${row.id}`);
    expect(detail.session.id).toBe(row.id);
    expect(detail.totalEvents).toBeGreaterThan(0);
    expect(detail.subagents.length).toBeGreaterThan(0);
    // by prefix too
    expect((await json<SessionDetail>(`/api/sessions/${row.id.slice(0, 8)}`)).session.id).toBe(row.id);

    const first = await json<EventsPage>(`/api/sessions/${row.id}/events?offset=0&limit=2`);
    expect(first.total).toBe(detail.totalEvents);
    expect(first.events.length).toBe(Math.min(2, detail.totalEvents));
    expect(first.events[0]?.index).toBe(0);
    const rest = await json<EventsPage>(`/api/sessions/${row.id}/events?offset=2&limit=500`);
    expect(rest.offset).toBe(2);
    expect(first.events.length + rest.events.length).toBe(detail.totalEvents);

    // results are nested in their calls
    const calls = [...first.events, ...rest.events].flatMap((e) =>
      e.kind === 'assistant' ? e.items.filter((i): i is CallDto => i.kind === 'tool-call') : [],
    );
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.some((c) => c.result !== null)).toBe(true);
    const agentCall = calls.find((c) => c.subagent !== null);
    expect(agentCall?.canonicalName).toBe('Agent');

    // a subagent's own timeline
    const sub = agentCall!.subagent!;
    const subPage = await json<EventsPage>(`/api/sessions/${row.id}/events?agent=${encodeURIComponent(sub.key)}`);
    expect(subPage.agent).toBe(sub.key);
    expect(subPage.total).toBeGreaterThan(0);

    // one call in full, and where it is
    const full = await json<CallDto>(`/api/sessions/${row.id}/calls/${agentCall!.id}`);
    expect(full.id).toBe(agentCall!.id);
    expect(full.truncated).toBe(false);
    const loc = await json<{ index: number; expand: string[] }>(`/api/sessions/${row.id}/locate/${agentCall!.id}`);
    expect(loc.expand).toEqual([]);
    expect(loc.index).toBeGreaterThanOrEqual(0);
    const issues = await json<{ issues: unknown[] }>(`/api/sessions/${row.id}/issues`);
    expect(Array.isArray(issues.issues)).toBe(true);
  });

  it('answers 404 JSON for unknown ids, calls and subagents, and 400 for bad numbers', async () => {
    const row = await sessionWith(() => true);
    const cases = [
      '/api/sessions/does-not-exist',
      '/api/sessions/..%2F..%2Fetc%2Fpasswd',
      '/api/sessions/%2Fetc%2Fpasswd/events',
      `/api/sessions/${row.id}/calls/toolu_nope`,
      `/api/sessions/${row.id}/locate/toolu_nope`,
      `/api/sessions/${row.id}/events?agent=nope`,
      '/api/no-such-route',
    ];
    for (const path of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      const body = (await res.json()) as { success: boolean; error: string };
      expect(body.success).toBe(false);
      expect(typeof body.error).toBe('string');
    }
    expect((await get(`/api/sessions/${row.id}/events?limit=abc`)).status).toBe(400);
    expect((await get(`/api/sessions/${row.id}/events?offset=-1`)).status).toBe(400);
  });

  it('answers an unknown session with the code UNKNOWN_SESSION, as docs/dashboard.md says', async () => {
    for (const id of ['does-not-exist', 'x'.repeat(1001)]) {
      const res = await get(`/api/sessions/${id}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ success: false, error: 'session not found', code: 'UNKNOWN_SESSION' });
    }
  });

  it('answers 409 with a stable code for a prefix of several sessions, never 404', async () => {
    const { sessions } = (await (await get('/api/sessions?limit=1000')).json()) as SessionsResponse;
    const ids = sessions.map((s) => s.id);
    const prefix = ids.map((id) => id.slice(0, 1)).find((p, _, all) => all.filter((q) => q === p).length > 1);
    expect(prefix).toBeDefined();
    const res = await get(`/api/sessions/${prefix}`);
    expect(res.status).toBe(409);
    const body = (await res.json()) as { candidates?: string[] };
    expect(body).toMatchObject({ success: false, code: 'AMBIGUOUS_SESSION' });
    // every session it names, for the page to link to (the message lists five at most)
    expect(body.candidates?.slice().sort()).toEqual(ids.filter((id) => id.startsWith(prefix ?? '')).sort());
  });

  it('never serves a session outside the served paths', async () => {
    const other = join(tmp, 'other-home');
    await cp(join(samples, 'projects', '-home-user-proj-web'), join(other, 'projects', '-home-user-proj-web'), {
      recursive: true,
    });
    await cp(join(samples, 'projects', '-home-user-proj-files'), join(other, 'projects', '-home-user-proj-files'), {
      recursive: true,
    });
    const both = openIndex({ dbPath: join(tmp, 'both.sqlite') });
    try {
      await both.refresh([other, join(samples, 'projects', '-home-user-proj-shell')]);
      const shellOnly = createApp({
        index: both,
        paths: [join(samples, 'projects', '-home-user-proj-shell')],
        host: '127.0.0.1',
        port: PORT,
        assetsDir,
      });
      const list = (await (await shellOnly.request('/api/sessions', { headers: HOST })).json()) as SessionsResponse;
      expect(list.total).toBeGreaterThan(0);
      expect(list.sessions.every((s) => s.projectPath === '/home/user/proj/shell')).toBe(true);
      const outside = both.listSessions({ paths: [other] })[0]!;
      expect((await shellOnly.request(`/api/sessions/${outside.id}`, { headers: HOST })).status).toBe(404);
    } finally {
      both.close();
    }
  });
});

describe('bad input', () => {
  it('reports a malformed line with its line number and shows an unknown record raw, escaped as data', async () => {
    const home = join(tmp, 'bad-home');
    const dir = join(home, 'projects', '-home-user-proj-shell');
    await mkdir(dir, { recursive: true });
    const source = join(samples, 'projects', '-home-user-proj-shell', 'f0835e0b-b4c6-4910-817c-346fd7332302.jsonl');
    const lines = (await readFile(source, 'utf8')).split('\n');
    lines.splice(5, 0, '{"type":"user","message":{"content":"broken');
    lines.splice(8, 0, '{"type":"hologram","sessionId":"x","beam":"<script>alert(1)</script>"}');
    await writeFile(join(dir, 'f0835e0b-b4c6-4910-817c-346fd7332302.jsonl'), lines.join('\n'));
    const bad = openIndex({ dbPath: join(tmp, 'bad.sqlite') });
    try {
      await bad.refresh([home]);
      const badApp = createApp({ index: bad, paths: [home], host: '127.0.0.1', port: PORT, assetsDir });
      const call = async <T>(path: string) => (await (await badApp.request(path, { headers: HOST })).json()) as T;
      const id = 'f0835e0b-b4c6-4910-817c-346fd7332302';
      const issues = await call<{ issues: { code: string; line: number }[] }>(`/api/sessions/${id}/issues`);
      expect(issues.issues.map((i) => [i.code, i.line])).toEqual([
        ['invalid_json', 6],
        ['unknown_record', 9],
      ]);
      const page = await call<EventsPage>(`/api/sessions/${id}/events?offset=0&limit=1000`);
      const unknown = page.events.filter((e) => e.kind === 'note' && e.source === 'unknown');
      expect(unknown.map((e) => e.kind === 'note' && [e.label, JSON.parse(e.text ?? '')])).toEqual([
        ['hologram', { type: 'hologram', sessionId: 'x', beam: '<script>alert(1)</script>' }],
      ]);
      // Every tool call of the session is still there.
      const calls = page.events.flatMap((e) =>
        e.kind === 'assistant' ? e.items.filter((i) => i.kind === 'tool-call') : [],
      );
      expect(calls.length).toBe(21);
    } finally {
      bad.close();
    }
  });
});

describe('analytics', () => {
  it('returns per-tool stats, days, projects and durations', async () => {
    const stats = await json<StatsResponse>('/api/stats');
    expect(stats.tools.length).toBeGreaterThan(5);
    const bash = stats.tools.find((t) => t.tool === 'Bash');
    expect(bash?.calls).toBeGreaterThan(0);
    // aliases merged: Task and Agent are one tool
    expect(stats.tools.filter((t) => t.tool === 'Task')).toEqual([]);
    expect(stats.totals.calls).toBe(stats.tools.reduce((n, t) => n + t.calls, 0));
    expect(stats.days.length).toBeGreaterThan(0);
    expect(stats.projects.length).toBeGreaterThan(1);
    expect(stats.durations.reduce((n, b) => n + b.count, 0)).toBeGreaterThan(0);
    expect(stats.categories.length).toBeGreaterThan(0);
  });

  it("gives an agent's tools the same rows as the whole scope when it is the only agent (percentiles over merged durations)", async () => {
    const stats = await json<StatsResponse>('/api/stats');
    const row = (t: StatsResponse['tools'][number]) => [t.tool, t.calls, t.errors, t.p50, t.p95, t.max];
    expect(stats.agents.map((a) => a.agent)).toEqual(['claude']);
    expect(stats.agents[0]?.tools.map(row)).toEqual(stats.tools.map(row));
  });

  it('lists failing calls for drill-down', async () => {
    const body = await json<{ calls: { tool: string; status: string; sessionId: string; callId: string }[] }>(
      '/api/calls?tool=Bash&status=error',
    );
    expect(body.calls.length).toBeGreaterThan(0);
    expect(body.calls.every((c) => c.tool === 'Bash' && c.status === 'error')).toBe(true);
    const one = body.calls[0]!;
    const loc = await json<{ index: number }>(`/api/sessions/${one.sessionId}/locate/${one.callId}`);
    expect(loc.index).toBeGreaterThanOrEqual(0);
  });
});
