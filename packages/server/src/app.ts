import { resolve } from 'node:path';
import { type AgentId, agentIds, type ErrorSeverity, isAgentId, isTimeZone, usageTotalsOf } from '@agentdash/core';
import { type CallRowStatus, type SessionSummary, sessionSorts } from '@agentdash/index';
import { type Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { type AgentIndex, type IndexFilter, isUnder } from './agent-index.js';
import type {
  CallRowDto,
  CallsResponse,
  HealthResponse,
  IndexStatus,
  IssueDto,
  LiveMessage,
  SessionDetail,
  SessionRow,
  SessionsResponse,
} from './api-types.js';
import { exportFormats } from './export-formats.js';
import { exportAssetsBuilt } from './export-html.js';
import { HttpError, toHttpError } from './http-error.js';
import { type IndexQueries, localQueries, withSearchSnippets } from './index-queries.js';
import { readyStatus } from './index-state.js';
import { ListCache } from './list-cache.js';
import type { LiveEvents } from './live.js';
import { agentInfos, hitCallId, hitSessionId, hitSnippet, toCallRow, toIssue, toSessionRow } from './mapping.js';
import { noTelemetryRoutes, type OtlpState, telemetryRoutes } from './otlp/telemetry-routes.js';
import { type Answer, RawJson, sendJson } from './raw-json.js';
import { shownAnswer } from './redaction.js';
import { hostCheck, securityHeaders, tokenCheck } from './security.js';
import { createLocalSessionHost, type SessionHost, SessionViews } from './session-host.js';
import { defaultAssetsDir, serveAsset } from './static.js';
import { exportDownload, versionsRoutes } from './versions-routes.js';

export interface AppDeps {
  /** The local index; a team server passes `queries`, `sessions` and `dataVersion` instead. */
  readonly index?: AgentIndex | undefined;
  /** Changes whenever the data may have (default: the index's `dataVersion`): cached answers under another are stale. */
  readonly dataVersion?: (() => string) | undefined;
  /** A team server (`agentdash serve --team`): health says so, with the sharing tiers its sessions hold. */
  /** Check the Host header (DNS rebinding; default true). A team server, where every request has a token, does not. */
  readonly checkHost?: boolean | undefined;
  readonly team?: { readonly tiers: () => Promise<NonNullable<HealthResponse['tiers']>> } | undefined;
  readonly paths: readonly string[];
  readonly host: string;
  readonly port: number;
  /** The paths are the bundled sample sessions (`HealthResponse.samples`). */
  readonly samples?: boolean | undefined;
  readonly token?: string | undefined;
  readonly assetsDir?: string | undefined;
  readonly events?: LiveEvents | undefined;
  /** The first index build's progress; without it the index counts as ready. */
  readonly indexStatus?: (() => IndexStatus) | undefined;
  /** Where the index queries run (a worker thread in `startServer`); default: in this thread. */
  readonly queries?: IndexQueries | undefined;
  /** Where sessions are loaded and paged (a worker thread in `startServer`); default: in this thread. */
  readonly sessions?: SessionHost | undefined;
  /**
   * `serve --redact` (screen sharing): every secret in every answer is redacted, content included; HTML exports are
   * always redacted. Without it only identifiers (titles, project paths, cwd, branches, file paths) are.
   * `sessions` must be made with the same setting.
   */
  readonly redact?: boolean | undefined;
  /** `serve`'s OTLP receiver: where it listens, or why it does not (`GET /api/telemetry/setup`). */
  readonly otlp?: OtlpState | undefined;
}

// Session references (`<id>@<folder>`, keys) and synthetic call ids (`<uuid>#<n>`) hold more than [\w.:-];
// they are only ever looked up as SQL parameters and map keys.
const ID = /^\P{Cc}{1,1000}$/u;
const MAX_PAGE = 500;
const DEFAULT_SESSIONS_PAGE = 200;
const MAX_SESSIONS_PAGE = 1000;

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

/** `agent=claude|codex|gemini`; anything else is a 400. */
function agentParam(c: Context): AgentId | undefined {
  const raw = c.req.query('agent');
  if (raw === undefined || raw === '') return undefined;
  if (!isAgentId(raw)) throw new HttpError(400, `agent must be one of ${agentIds.join(', ')}`);
  return raw;
}

function sessionFilter(c: Context): IndexFilter {
  const until = dateParam(c, 'until');
  return {
    agent: agentParam(c),
    project: textParam(c, 'project'),
    since: dateParam(c, 'since'),
    // a bare date means "through the end of that day"
    until: until && /^\d{4}-\d{2}-\d{2}$/.test(until) ? `${until}T23:59:59.999Z` : until,
    model: textParam(c, 'model'),
    version: textParam(c, 'version'),
    hasErrors: c.req.query('hasErrors') === 'true' || c.req.query('hasErrors') === '1' ? true : undefined,
    hideEmpty: c.req.query('hideEmpty') === 'true' || c.req.query('hideEmpty') === '1' ? true : undefined,
    ...teamFilter(c),
  };
}

/** `person` and `device`: a team server's filters on every route (a local server has one person and ignores them). */
function teamFilter(c: Context): { person?: string | undefined; device?: string | undefined } {
  return { person: textParam(c, 'person'), device: textParam(c, 'device') };
}

function clean<T extends object>(filter: T): T {
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)) as T;
}

/**
 * How long answers are kept while sessions change (see `ListCache.get`): under 50 dashboards and a session appended
 * to twice a second, searches and statistics recomputed for every change kept the query worker busy and every route
 * waited. The dashboard itself reloads its analytics pages at most every 5 s while sessions change
 * (`use-live-tick.ts`). The list (a new session shows at once), session headers and event pages are never kept.
 */
const SEARCH_KEEP_MS = 5000;
const ANALYTICS_KEEP_MS = 5000;

/**
 * A live message's JSON, serialized once for every open event stream (50 dashboards get one change: one
 * serialization, not 50 and a parse each).
 */
const sseTexts = new WeakMap<LiveMessage, string>();
export function sseData(message: LiveMessage): string {
  let text = sseTexts.get(message);
  if (text === undefined) {
    text = JSON.stringify(message);
    sseTexts.set(message, text);
  }
  return text;
}

/** The AgentDash HTTP app: JSON API under /api, SSE on /api/events, and the built dashboard. */
export function createApp(deps: AppDeps) {
  const index = deps.index;
  const needIndex = (): AgentIndex => {
    if (!index) throw new Error('createApp needs an index, or queries, sessions and dataVersion');
    return index;
  };
  const roots = deps.paths.map((p) => resolve(p));
  const scope = roots.length > 0 ? { paths: roots } : {};
  const assetsDir = deps.assetsDir ?? defaultAssetsDir();
  const redact = deps.redact === true;
  const sessions =
    deps.sessions ?? createLocalSessionHost(needIndex(), new SessionViews(needIndex(), undefined, undefined, redact));
  /** Every answer goes out through this (docs/secrets.md); session pages are redacted where sessions are loaded. */
  const shown = <T>(value: T): T => shownAnswer(value, redact);
  const queries = deps.queries ?? localQueries(needIndex());
  const dataVersion = deps.dataVersion ?? (() => needIndex().dataVersion());

  const started = Date.now();
  const indexStatus = deps.indexStatus ?? (() => readyStatus(started));

  const listCache = new ListCache(10_000, Date.now, () => indexStatus().state === 'indexing', dataVersion);

  // A search answer kept past a change is dropped later: then the list is said to have changed, so the dashboards
  // showing it ask again and get the fresh one.
  let keptTimer: NodeJS.Timeout | undefined;
  listCache.onKeptServed = (until) => {
    if (keptTimer || !deps.events) return;
    const events = deps.events;
    keptTimer = setTimeout(
      () => {
        keptTimer = undefined;
        events.publish({ type: 'sessions-changed' });
      },
      Math.max(0, until - Date.now()) + 10,
    );
    keptTimer.unref();
  };
  deps.events?.subscribe((message) => {
    if (message.type !== 'hello') listCache.clear();
    if (message.type === 'session-updated') sessions.invalidate(message.sessionId);
    // Sessions loaded while the first build ran may miss files read since.
    if (message.type === 'index-progress' && message.index.state === 'ready') sessions.invalidate();
  });

  /**
   * Whether every session of the index is in scope (the usual case): queries then need not check each one's files.
   * Checking costs a pass over every session's files, so it is done again only when the number of sessions changes,
   * not after every append to a live session (seconds per change under load).
   */
  let covers: { readonly total: number; readonly value: Promise<boolean> } | undefined;
  const coversAllSessions = async (): Promise<boolean> => {
    if (roots.length === 0) return true;
    const { total } = await listCache.get('totals:{}', () => queries.sessionTotals({}));
    if (covers?.total !== total) {
      const value = queries.sessionTotals(scope).then((inScope) => inScope.total === total);
      covers = { total, value };
      value.catch(() => {
        if (covers?.value === value) covers = undefined;
      });
    }
    return covers.value;
  };

  const allRows = async (filter: IndexFilter = {}): Promise<SessionRow[]> =>
    (await queries.listSessions(clean({ ...filter, ...scope }))).map((s) => shown(toSessionRow(s)));

  /** The index's summary of the session a reference names, if it is served here (else a 404). */
  const foundOf = async (idOrPrefix: string): Promise<SessionSummary> => {
    if (!ID.test(idOrPrefix)) throw new HttpError(404, 'session not found');
    let found: SessionSummary | undefined;
    try {
      // Every per-session request looks its session up: kept like the lists (with the check below), so it does
      // not wait behind a search or statistics query in the query worker.
      found = await listCache.get(`session\u0000${idOrPrefix}`, async () => {
        const summary = await queries.getSession(idOrPrefix, { paths: roots });
        // ids, never paths: a session whose files are outside the served sources does not exist here (a file kept
        // outside its agent's folders, as OpenCode's session snapshots are, is its source's: its project folder)
        const served =
          roots.length === 0 ||
          (summary !== undefined &&
            (summary.files.some((f) => isUnder(f.path, roots)) || isUnder(summary.projectDir, roots)));
        return served ? summary : undefined;
      });
    } catch (error) {
      throw toHttpError(error) ?? error;
    }
    if (!found) throw new HttpError(404, 'session not found');
    return found;
  };

  const summaryOf = async (idOrPrefix: string): Promise<SessionRow> => shown(toSessionRow(await foundOf(idOrPrefix)));

  /**
   * The session's header from the index's stored rows, without parsing its transcript (issue 8: a 200 MB session's
   * header in well under a second): the same JSON as the loaded session's header (`SessionView.detail`).
   */
  const indexHeader = async (found: SessionSummary, row: SessionRow): Promise<Answer<SessionDetail>> => {
    const parts = await queries.sessionHeader(row.id);
    // a file of the session cannot be read now: the load says so (and what the other files hold)
    if (!parts) return sessions.detail(row);
    // models in the order the session first used them, as a loaded session lists them
    const rank = (model: string) => {
      const at = found.models.indexOf(model);
      return at === -1 ? found.models.length : at;
    };
    return {
      session: row,
      gitBranch: found.gitBranch || null,
      totalEvents: parts.totalEvents,
      subagents: parts.subagents,
      usageByModel: Object.fromEntries(
        Object.entries(found.usageByModel)
          .sort(([a], [b]) => rank(a) - rank(b))
          .map(([model, u]) => [model, usageTotalsOf(u)]),
      ),
      counts: parts.counts,
      issues: parts.issues,
      toolCounts: parts.toolCounts,
      shells: parts.shells,
    };
  };

  const app = new Hono();

  app.onError((error, c) => {
    const http = toHttpError(error);
    if (http) {
      const body =
        http.code === undefined
          ? { success: false, error: http.message }
          : { success: false, error: http.message, code: http.code };
      return c.json(body, http.status);
    }
    console.error('agentdash: request failed:', error);
    return c.json({ success: false, error: 'internal error' }, 500);
  });
  app.notFound((c) => c.json({ success: false, error: 'not found' }, 404));

  app.use('*', securityHeaders());
  if (deps.checkHost !== false) app.use('*', hostCheck(deps.host, deps.port));
  if (deps.token !== undefined && deps.token !== '') app.use('*', tokenCheck(deps.token));

  const api = new Hono();
  api.route('/telemetry', index ? telemetryRoutes(index, deps.otlp) : noTelemetryRoutes());
  if (index) api.route('/', versionsRoutes({ index, foundOf, shown, assetsDir, redact }));

  api.get('/health', async (c) => {
    const body: HealthResponse = {
      success: true,
      paths: deps.paths.length,
      index: indexStatus(),
      redact,
      mode: deps.team ? 'team' : 'local',
      ...(deps.team ? { tiers: await deps.team.tiers() } : {}),
      samples: deps.samples === true,
    };
    return c.json(body);
  });

  api.get('/agents', (c) => c.json(agentInfos()));

  api.get('/sessions', async (c) => {
    const filter = sessionFilter(c);
    const q = textParam(c, 'q');
    const offset = intParam(c, 'offset', 0, Number.MAX_SAFE_INTEGER);
    const limit = intParam(c, 'limit', DEFAULT_SESSIONS_PAGE, MAX_SESSIONS_PAGE);
    const sortRaw = c.req.query('sort') ?? 'startedAt';
    const sort = sessionSorts.find((k) => k === sortRaw);
    if (!sort) throw new HttpError(400, `sort must be one of ${sessionSorts.join(', ')}`);
    const dir = c.req.query('dir') ?? 'desc';
    if (dir !== 'asc' && dir !== 'desc') throw new HttpError(400, 'dir must be asc or desc');
    const coversAll = await coversAllSessions();
    const scoped = coversAll ? {} : scope;
    // The same page asked by many tabs (or again after a refresh of the page) is answered once until the index
    // changes: under 20 concurrent clients the list, search and statistics would otherwise queue in the worker.
    const body = await listCache.get(
      `sessions${new URL(c.req.url).search}`,
      async () => RawJson.of(shown(await sessionsBody(filter, q, offset, limit, sort, dir, scoped))),
      q ? SEARCH_KEEP_MS : 0,
    );
    return sendJson(c, body);
  });

  const sessionsBody = async (
    filter: IndexFilter,
    q: string | undefined,
    offset: number,
    limit: number,
    sort: (typeof sessionSorts)[number],
    dir: 'asc' | 'desc',
    scoped: { paths?: string[] },
  ): Promise<SessionsResponse> => {
    const facets = await listCache.get('facets', () => queries.sessionFacets(scoped));
    let body: SessionsResponse;
    if (q) {
      // Search keeps relevance order; its hits (each session's best, at most 500 sessions) are paged here.
      const searched = clean({
        agent: filter.agent,
        project: filter.project,
        since: filter.since,
        person: filter.person,
        device: filter.device,
        ...scope,
        limit: 500,
        onePerSession: true,
      });
      const hits = await queries.search(q, searched);
      // Only the sessions of the hits are looked up (and filtered), not the whole list.
      // (by session id, which may name a few sessions; rows are then matched by reference)
      const hitIds = [...new Set(hits.map((h) => h.sessionId))];
      const byId = new Map((await allRows({ ...filter, ids: hitIds })).map((r) => [r.id, r]));
      const seen = new Set<string>();
      const matched: SessionRow[] = [];
      for (const hit of hits) {
        const id = hitSessionId(hit);
        if (!id || seen.has(id)) continue;
        const row = byId.get(id);
        if (!row) continue;
        seen.add(id);
        matched.push({ ...row, snippet: hitSnippet(hit), matchCallId: hitCallId(hit) });
      }
      body = {
        sessions: await withSearchSnippets(queries, q, matched.slice(offset, offset + limit), searched),
        total: matched.length,
        offset,
        totals: {
          toolCalls: matched.reduce((n, r) => n + r.toolCalls, 0),
          errors: matched.reduce((n, r) => n + r.errors, 0),
          expectedErrors: matched.reduce((n, r) => n + r.expectedErrors, 0),
          live: matched.filter((r) => r.isLive).length,
        },
        facets,
      };
    } else {
      const selected = clean({ ...filter, ...scoped });
      const known = await listCache.get(`totals:${JSON.stringify(selected)}`, () => queries.sessionTotals(selected));
      const page = await queries.pageSessions(selected, { offset, limit, sort, descending: dir === 'desc', known });
      const { hideEmpty, ...unhidden } = selected;
      const hidden = hideEmpty
        ? (await listCache.get(`totals:${JSON.stringify(unhidden)}`, () => queries.sessionTotals(unhidden))).total -
          page.total
        : 0;
      body = {
        sessions: page.sessions.map(toSessionRow),
        total: page.total,
        offset: page.offset,
        totals: page.totals,
        facets,
        ...(hideEmpty ? { hiddenEmpty: hidden } : {}),
      };
    }
    return body;
  };

  // The header comes from the index, never waiting for the session to be parsed (`?wait=1`, which older clients send, is ignored).
  api.get('/sessions/:id', async (c) => {
    const found = await foundOf(c.req.param('id'));
    const row = shown(toSessionRow(found));
    // kept like the lists until the index changes: tabs and clients opening one session ask for it once
    return sendJson(
      c,
      await listCache.get(`header\u0000${row.id}`, async () => {
        const header = await indexHeader(found, row);
        // from the session worker (made from the redacted session), else from the index's rows
        return header instanceof RawJson ? header : RawJson.of(shown(header));
      }),
    );
  });

  api.get('/sessions/:id/events', async (c) => {
    const row = await summaryOf(c.req.param('id'));
    const offset = intParam(c, 'offset', 0, Number.MAX_SAFE_INTEGER);
    const limit = intParam(c, 'limit', 100, MAX_PAGE);
    const agent = textParam(c, 'agent');
    const all = c.req.query('all') === '1' || c.req.query('all') === 'true';
    const page = await sessions.page(row.id, agent, offset, limit, all);
    if (!page) throw new HttpError(404, 'subagent not found');
    return sendJson(c, page);
  });

  api.get('/sessions/:id/calls/:callId', async (c) => {
    const row = await summaryOf(c.req.param('id'));
    const callId = c.req.param('callId');
    if (!ID.test(callId)) throw new HttpError(404, 'call not found');
    const call = await sessions.call(row.id, callId);
    if (!call) throw new HttpError(404, 'call not found');
    return sendJson(c, call);
  });

  api.get('/sessions/:id/locate/:callId', async (c) => {
    const row = await summaryOf(c.req.param('id'));
    const callId = c.req.param('callId');
    if (!ID.test(callId)) throw new HttpError(404, 'call not found');
    const found = await sessions.locate(row.id, callId);
    if (!found) throw new HttpError(404, 'call not found');
    return c.json(found);
  });

  api.get('/sessions/:id/errors', async (c) => {
    const row = await summaryOf(c.req.param('id'));
    return c.json(await sessions.errors(row.id));
  });

  api.get('/sessions/:id/find', async (c) => {
    const row = await summaryOf(c.req.param('id'));
    const q = textParam(c, 'q');
    if (q === undefined) throw new HttpError(400, 'q is required');
    return c.json(await sessions.find(row.id, q));
  });

  // What `agentdash export --format F` writes (html: one self-contained file), secrets redacted unless `redact=0`.
  const exportRoute = async (c: Context, format: string | undefined) => {
    const chosen = exportFormats.find((f) => f === (format ?? 'html'));
    if (!chosen) throw new HttpError(400, `format must be one of ${exportFormats.join(', ')}`);
    const summary = await foundOf(c.req.param('id') ?? '');
    const row = shown(toSessionRow(summary));
    // A shared screen never downloads secrets.
    const redactExport = redact || c.req.query('redact') !== '0';
    if (chosen === 'html' && !exportAssetsBuilt(assetsDir))
      throw new HttpError(503, 'the HTML export viewer is not built: run npm run build');
    // Loaded, redacted and written where sessions live (the session worker), a batch at a time as the download reads.
    const out = await sessions.exportSession(row.id, chosen, summary, assetsDir, redactExport);
    return exportDownload(out, chosen, `agentdash-${row.id.slice(0, 8)}`);
  };
  api.get('/sessions/:id/export', (c) => exportRoute(c, c.req.query('format')));
  api.get('/sessions/:id/export.html', (c) => exportRoute(c, 'html'));

  api.get('/sessions/:id/waterfall', async (c) => {
    const row = await summaryOf(c.req.param('id'));
    return sendJson(c, await sessions.waterfall(row.id));
  });

  api.get('/sessions/:id/issues', async (c) => {
    const row = await summaryOf(c.req.param('id'));
    // Files that cannot be read now (permissions changed, removed) are not stored issues: take them from the load.
    const unreadable = await sessions.unreadable(row.id);
    const stored = await queries.issues({ sessionId: row.id, limit: 5000 });
    const issues: IssueDto[] = [...unreadable, ...stored].map(toIssue);
    return c.json(shown({ issues }));
  });

  api.get('/stats', async (c) => {
    const filter = clean({
      agent: agentParam(c),
      project: textParam(c, 'project'),
      since: dateParam(c, 'since'),
      until: dateParam(c, 'until'),
      ...teamFilter(c),
    });
    return sendJson(
      c,
      await listCache.get(
        `stats${new URL(c.req.url).search}`,
        async () => RawJson.of(shown(await queries.statsResponse({ ...filter, ...scope }))),
        ANALYTICS_KEEP_MS,
      ),
    );
  });

  api.get('/usage', async (c) => {
    const filter = clean({
      agent: agentParam(c),
      project: textParam(c, 'project'),
      model: textParam(c, 'model'),
      since: dateParam(c, 'since'),
      until: dateParam(c, 'until'),
      ...teamFilter(c),
    });
    // Days in the browser's time zone (`tz`, an IANA name), else the server's.
    const tz = textParam(c, 'tz');
    if (tz !== undefined && !isTimeZone(tz)) throw new HttpError(400, 'tz must be an IANA time zone name');
    return sendJson(
      c,
      await listCache.get(
        `usage${new URL(c.req.url).search}`,
        async () => RawJson.of(shown(await queries.usageResponse({ ...filter, ...scope }, Date.now(), tz))),
        ANALYTICS_KEEP_MS,
      ),
    );
  });

  api.get('/calls', async (c) => {
    const filter = clean({
      tool: textParam(c, 'tool'),
      status: textParam(c, 'status'),
      category: textParam(c, 'category'),
      severity: textParam(c, 'severity'),
      agent: agentParam(c),
      project: textParam(c, 'project'),
      since: dateParam(c, 'since'),
      until: dateParam(c, 'until'),
      limit: intParam(c, 'limit', 200, 2000),
      ...teamFilter(c),
    });
    const rows = await queries.calls({
      ...filter,
      ...scope,
      status: filter.status as CallRowStatus | undefined,
      severity: filter.severity as ErrorSeverity | undefined,
    });
    // Only the sessions these calls belong to, not the whole list, in one query: by session id (which may name a
    // few sessions: fuzzed or copied homes), each row then found by the reference that names it alone.
    const ids = [...new Set(rows.map((r) => r.sessionId))];
    const byId = new Map(ids.length === 0 ? [] : (await allRows({ ids })).map((r) => [r.id, r]));
    const calls: CallRowDto[] = rows.map((r) => toCallRow(r, byId));
    const body: CallsResponse = { calls };
    return c.json(shown(body));
  });

  api.get('/events', (c) =>
    streamSSE(c, async (stream) => {
      const queue: LiveMessage[] = [];
      let wake: (() => void) | undefined;
      let open = true;
      const end = () => {
        open = false;
        wake?.();
      };
      const unsubscribe = deps.events?.subscribe((message) => {
        // A stream that reads slowly holds each distinct change once (and the latest progress), never a backlog.
        const text = sseData(message);
        const same = queue.findIndex(
          (m) => sseData(m) === text || (m.type === 'index-progress' && m.type === message.type),
        );
        if (same >= 0) queue.splice(same, 1);
        queue.push(message);
        wake?.();
      }, end);
      stream.onAbort(end);
      try {
        await stream.writeSSE({ event: 'hello', data: JSON.stringify({ type: 'hello' }) });
        // A tab opened mid-build sees where the build is at once.
        const index = indexStatus();
        if (index.state === 'indexing') {
          await stream.writeSSE({ event: 'index-progress', data: JSON.stringify({ type: 'index-progress', index }) });
        }
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
            const message = queue.shift()!;
            await stream.writeSSE({ event: message.type, data: sseData(message) });
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
