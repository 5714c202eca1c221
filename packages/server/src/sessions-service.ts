/**
 * The sessions list, one page at a time (`GET /api/sessions`): the index's page, sort and counts, or with `q` the
 * full-text search's hits (each session's best, in relevance order) paged here; facets and counts kept until the
 * index changes.
 * @module
 */
import type { SessionSort } from '@agentdash/index';
import type { IndexFilter } from './agent-index.js';
import type { SessionRow, SessionsResponse } from './api-types.js';
import { type AppServices, clean } from './app-services.js';
import { withSearchSnippets } from './index-queries.js';
import { hitCallId, hitSessionId, hitSnippet, toSessionRow } from './mapping.js';

export interface SessionsPageRequest {
  readonly filter: IndexFilter;
  readonly q: string | undefined;
  readonly offset: number;
  readonly limit: number;
  readonly sort: SessionSort;
  readonly dir: 'asc' | 'desc';
  /** The served scope, or `{}` when it covers every session of the index. */
  readonly scoped: { readonly paths?: string[] };
}

/** Search hits looked at at most (each session's best): the pages of a search are cut from them. */
export const MAX_SEARCH_SESSIONS = 500;

export async function sessionsPage(services: AppServices, request: SessionsPageRequest): Promise<SessionsResponse> {
  const { listCache, queries } = services;
  const facets = await listCache.get('facets', () => queries.sessionFacets(request.scoped));
  if (request.q) return { ...(await searchPage(services, request)), facets };
  const { offset, limit, sort, dir } = request;
  const selected = clean({ ...request.filter, ...request.scoped });
  const known = await listCache.get(`totals:${JSON.stringify(selected)}`, () => queries.sessionTotals(selected));
  const page = await queries.pageSessions(selected, { offset, limit, sort, descending: dir === 'desc', known });
  const { hideEmpty, ...unhidden } = selected;
  const hidden = hideEmpty
    ? (await listCache.get(`totals:${JSON.stringify(unhidden)}`, () => queries.sessionTotals(unhidden))).total -
      page.total
    : 0;
  return {
    sessions: page.sessions.map(toSessionRow),
    total: page.total,
    offset: page.offset,
    totals: page.totals,
    facets,
    ...(hideEmpty ? { hiddenEmpty: hidden } : {}),
  };
}

/** A search's page: relevance order, only the sessions of the hits looked up (and filtered), not the whole list. */
async function searchPage(
  services: AppServices,
  { filter, q, offset, limit }: SessionsPageRequest,
): Promise<Omit<SessionsResponse, 'facets'>> {
  const searched = clean({
    agent: filter.agent,
    project: filter.project,
    since: filter.since,
    person: filter.person,
    device: filter.device,
    ...services.scope,
    limit: MAX_SEARCH_SESSIONS,
    onePerSession: true,
  });
  const hits = await services.queries.search(q ?? '', searched);
  // by session id, which may name a few sessions; rows are then matched by reference
  const hitIds = [...new Set(hits.map((h) => h.sessionId))];
  const byId = new Map((await services.allRows({ ...filter, ids: hitIds })).map((r) => [r.id, r]));
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
  // a store that leaves snippets to the rows shown (the team server's) cuts this page's only; a row it then finds no
  // hit for is left out, and the page filled from the rows after it
  const shown: SessionRow[] = [];
  const gone = new Set<string>();
  for (let at = offset; shown.length < limit && at < matched.length; ) {
    const rows = matched.slice(at, at + limit - shown.length);
    at += rows.length;
    const kept = await withSearchSnippets(services.queries, q ?? '', rows, searched);
    const ids = new Set(kept.map((r) => r.id));
    for (const r of rows) if (!ids.has(r.id)) gone.add(r.id);
    shown.push(...kept);
  }
  const found = gone.size === 0 ? matched : matched.filter((r) => !gone.has(r.id));
  return {
    sessions: shown,
    total: found.length,
    // the hits were cut at the cap: say so, the filters above cut from those
    ...(hits.length >= MAX_SEARCH_SESSIONS ? { searchCap: MAX_SEARCH_SESSIONS } : {}),
    offset,
    totals: {
      toolCalls: found.reduce((n, r) => n + r.toolCalls, 0),
      errors: found.reduce((n, r) => n + r.errors, 0),
      expectedErrors: found.reduce((n, r) => n + r.expectedErrors, 0),
      apiErrors: found.reduce((n, r) => n + (r.apiErrors ?? 0), 0),
      live: found.filter((r) => r.isLive).length,
    },
  };
}
