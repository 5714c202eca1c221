import { resolve } from 'node:path';
import type { ErrorSeverity } from '@agentdash/core';
import { waterfallOf } from '@agentdash/core/time';
import type { CallRowStatus } from '@agentdash/index';
import { type Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { type AgentIndex, type IndexFilter, isUnder } from './agent-index.js';
import type { CallRowDto, CallsResponse, IssueDto, SessionRow, SessionsResponse } from './api-types.js';
import type { LiveEvents } from './live.js';
import { hitCallId, hitSessionId, hitSnippet, toCallRow, toIssue, toSessionRow } from './mapping.js';
import { hostCheck, securityHeaders, tokenCheck } from './security.js';
import { SessionView } from './session-view.js';
import { defaultAssetsDir, serveAsset } from './static.js';
import { statsResponse } from './stats-response.js';
import { usageResponse } from './usage-response.js';

export interface AppDeps {
  readonly index: AgentIndex;
  readonly paths: readonly string[];
  readonly host: string;
  readonly port: number;
  readonly token?: string | undefined;
  readonly assetsDir?: string | undefined;
  readonly events?: LiveEvents | undefined;
}

class HttpError extends Error {
  constructor(
    readonly status: 400 | 404 | 500,
    message: string,
  ) {
    super(message);
  }
}

// Session references (`<id>@<folder>`, keys) and synthetic call ids (`<uuid>#<n>`) hold more than [\w.:-];
// they are only ever looked up as SQL parameters and map keys.
const ID = /^\P{Cc}{1,1000}$/u;
const MAX_PAGE = 500;
const CACHE_SIZE = 4;

function intParam(c: Context, name: string, fallback: number, max: number): number {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new HttpError(400, `${name} must be a non-negative integer`);
  return Math.min(Number(raw), max);
}

function dateParam(c: Context, name: string): string | undefined {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') return undefined;
  if (Number.isNaN(Date.parse(raw))) throw new HttpError(400, `${name} must be a date`);
  return raw;
}

function textParam(c: Context, name: string): string | undefined {
  const raw = c.req.query(name);
  // NUL never belongs in a filter or a query (SQLite and FTS5 stop or fail at it).
  const text = raw?.replaceAll('\0', '');
  return text === undefined || text === '' ? undefined : text.slice(0, 500);
}

function sessionFilter(c: Context): IndexFilter {
  const until = dateParam(c, 'until');
  return {
    project: textParam(c, 'project'),
    since: dateParam(c, 'since'),
    // a bare date means "through the end of that day"
    until: until && /^\d{4}-\d{2}-\d{2}$/.test(until) ? `${until}T23:59:59.999Z` : until,
    model: textParam(c, 'model'),
    version: textParam(c, 'version'),
    hasErrors: c.req.query('hasErrors') === 'true' || c.req.query('hasErrors') === '1' ? true : undefined,
  };
}

function clean<T extends object>(filter: T): T {
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)) as T;
}

/** The AgentDash HTTP app: JSON API under /api, SSE on /api/events, and the built dashboard. */
export function createApp(deps: AppDeps) {
  const index = deps.index;
  const roots = deps.paths.map((p) => resolve(p));
  const scope = roots.length > 0 ? { paths: roots } : {};
  const assetsDir = deps.assetsDir ?? defaultAssetsDir();
  const cache = new Map<string, SessionView>();

  deps.events?.subscribe((message) => {
    if (message.type === 'session-updated') cache.delete(message.sessionId);
  });

  const allRows = async (filter: IndexFilter = {}): Promise<SessionRow[]> =>
    index.listSessions(clean({ ...filter, ...scope })).map(toSessionRow);

  const summaryOf = async (idOrPrefix: string): Promise<SessionRow> => {
    if (!ID.test(idOrPrefix)) throw new HttpError(404, 'session not found');
    let found: ReturnType<AgentIndex['getSession']>;
    try {
      found = index.getSession(idOrPrefix, { paths: roots });
    } catch {
      throw new HttpError(404, 'session not found (or the id prefix is ambiguous)');
    }
    if (!found) throw new HttpError(404, 'session not found');
    // ids, never paths: a session whose files are outside the served sources does not exist here
    if (roots.length > 0 && !found.files.some((f) => isUnder(f.path, roots))) {
      throw new HttpError(404, 'session not found');
    }
    return toSessionRow(found);
  };

  const viewOf = async (sessionId: string): Promise<SessionView> => {
    const hit = cache.get(sessionId);
    if (hit) {
      cache.delete(sessionId);
      cache.set(sessionId, hit);
      return hit;
    }
    const session = await index.loadSession(sessionId).catch(() => {
      throw new HttpError(404, 'session not found');
    });
    const view = new SessionView(session);
    cache.set(sessionId, view);
    while (cache.size > CACHE_SIZE) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
    return view;
  };

  const app = new Hono();

  app.onError((error, c) => {
    if (error instanceof HttpError) return c.json({ success: false, error: error.message }, error.status);
    console.error('agentdash: request failed:', error);
    return c.json({ success: false, error: 'internal error' }, 500);
  });
  app.notFound((c) => c.json({ success: false, error: 'not found' }, 404));

  app.use('*', securityHeaders());
  app.use('*', hostCheck(deps.host, deps.port));
  if (deps.token !== undefined && deps.token !== '') app.use('*', tokenCheck(deps.token));

  const api = new Hono();

  api.get('/health', (c) => c.json({ success: true, paths: deps.paths.length }));

  api.get('/sessions', async (c) => {
    const filter = sessionFilter(c);
    const q = textParam(c, 'q');
    const everything = await allRows();
    let sessions: SessionRow[];
    if (q) {
      const hits = index.search(q, clean({ project: filter.project, since: filter.since, ...scope, limit: 500 }));
      const byId = new Map((await allRows(filter)).map((r) => [r.id, r]));
      const seen = new Set<string>();
      sessions = [];
      for (const hit of hits) {
        const id = hitSessionId(hit);
        if (!id || seen.has(id)) continue;
        const row = byId.get(id);
        if (!row) continue;
        seen.add(id);
        sessions.push({ ...row, snippet: hitSnippet(hit), matchCallId: hitCallId(hit) });
      }
    } else {
      sessions = await allRows(filter);
      sessions.sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''));
    }
    const distinct = (values: Iterable<string | null>) =>
      [...new Set([...values].filter((v): v is string => !!v))].sort();
    const body: SessionsResponse = {
      sessions,
      total: sessions.length,
      facets: {
        projects: distinct(everything.map((r) => r.projectPath)),
        models: distinct(everything.flatMap((r) => r.models)),
        versions: distinct(everything.flatMap((r) => r.versions)),
      },
    };
    return c.json(body);
  });

  api.get('/sessions/:id', async (c) => {
    const row = await summaryOf(c.req.param('id'));
    const view = await viewOf(row.id);
    return c.json(view.detail(row));
  });

  api.get('/sessions/:id/events', async (c) => {
    const row = await summaryOf(c.req.param('id'));
    const offset = intParam(c, 'offset', 0, Number.MAX_SAFE_INTEGER);
    const limit = intParam(c, 'limit', 100, MAX_PAGE);
    const agent = textParam(c, 'agent');
    const all = c.req.query('all') === '1' || c.req.query('all') === 'true';
    const view = await viewOf(row.id);
    const page = view.page(agent, offset, limit, all);
    if (!page) throw new HttpError(404, 'subagent not found');
    return c.json(page);
  });

  api.get('/sessions/:id/calls/:callId', async (c) => {
    const row = await summaryOf(c.req.param('id'));
    const callId = c.req.param('callId');
    if (!ID.test(callId)) throw new HttpError(404, 'call not found');
    const view = await viewOf(row.id);
    const call = view.callsById.get(callId);
    if (!call) throw new HttpError(404, 'call not found');
    return c.json(view.callDto(call, true));
  });

  api.get('/sessions/:id/locate/:callId', async (c) => {
    const row = await summaryOf(c.req.param('id'));
    const callId = c.req.param('callId');
    if (!ID.test(callId)) throw new HttpError(404, 'call not found');
    const found = (await viewOf(row.id)).locate(callId);
    if (!found) throw new HttpError(404, 'call not found');
    return c.json(found);
  });

  api.get('/sessions/:id/waterfall', async (c) => {
    const row = await summaryOf(c.req.param('id'));
    const view = await viewOf(row.id);
    return c.json(waterfallOf(view.session));
  });

  api.get('/sessions/:id/issues', async (c) => {
    const row = await summaryOf(c.req.param('id'));
    // Files that cannot be read now (permissions changed, removed) are not stored issues: take them from the load.
    const unreadable = (await viewOf(row.id)).session.issues.filter((i) => i.code === 'unreadable_file');
    const issues: IssueDto[] = [...unreadable, ...index.issues({ sessionId: row.id, limit: 5000 })].map(toIssue);
    return c.json({ issues });
  });

  api.get('/stats', async (c) => {
    const filter = clean({
      project: textParam(c, 'project'),
      since: dateParam(c, 'since'),
      until: dateParam(c, 'until'),
    });
    return c.json(statsResponse(index, { ...filter, ...scope }));
  });

  api.get('/usage', async (c) => {
    const filter = clean({
      project: textParam(c, 'project'),
      model: textParam(c, 'model'),
      since: dateParam(c, 'since'),
      until: dateParam(c, 'until'),
    });
    return c.json(usageResponse(index, { ...filter, ...scope }, Date.now()));
  });

  api.get('/calls', async (c) => {
    const filter = clean({
      tool: textParam(c, 'tool'),
      status: textParam(c, 'status'),
      category: textParam(c, 'category'),
      severity: textParam(c, 'severity'),
      project: textParam(c, 'project'),
      since: dateParam(c, 'since'),
      until: dateParam(c, 'until'),
      limit: intParam(c, 'limit', 200, 2000),
    });
    const byId = new Map((await allRows()).map((s) => [s.id, s]));
    const calls: CallRowDto[] = index
      .calls({
        ...filter,
        ...scope,
        status: filter.status as CallRowStatus | undefined,
        severity: filter.severity as ErrorSeverity | undefined,
      })
      .map((r) => toCallRow(r, byId));
    const body: CallsResponse = { calls };
    return c.json(body);
  });

  api.get('/events', (c) =>
    streamSSE(c, async (stream) => {
      const queue: string[] = [];
      let wake: (() => void) | undefined;
      let open = true;
      const end = () => {
        open = false;
        wake?.();
      };
      const unsubscribe = deps.events?.subscribe((message) => {
        queue.push(JSON.stringify(message));
        wake?.();
      }, end);
      stream.onAbort(end);
      try {
        await stream.writeSSE({ event: 'hello', data: JSON.stringify({ type: 'hello' }) });
        while (open) {
          if (queue.length === 0) {
            // The ping timer must neither keep the process alive nor outlive a wake-up (shutdown within a second).
            let ping: NodeJS.Timeout | undefined;
            await new Promise<void>((resolve) => {
              wake = resolve;
              ping = setTimeout(resolve, 25_000);
              ping.unref();
            });
            clearTimeout(ping);
            wake = undefined;
          }
          if (!open) break;
          if (queue.length === 0) {
            await stream.writeSSE({ event: 'ping', data: '{}' });
            continue;
          }
          while (queue.length > 0) {
            const data = queue.shift()!;
            await stream.writeSSE({ event: (JSON.parse(data) as { type: string }).type, data });
          }
        }
      } finally {
        unsubscribe?.();
      }
    }),
  );

  api.all('*', (c) => c.json({ success: false, error: 'not found' }, 404));

  app.route('/api', api);

  app.get('*', (c) => serveAsset(c, assetsDir));

  return app;
}

export type AppType = ReturnType<typeof createApp>;
