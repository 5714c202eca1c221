/**
 * The index queries the API runs, as promises: in this thread (tests, `:memory:` indexes) or in a worker thread
 * (`startServer`), so a heavy query — search, statistics, a page of 50,000 sessions — never blocks the event loop.
 */
import type { AgentIndex, SearchFilter, SearchHit, UsageFilter } from '@agentdash/index';
import type { SessionRow, StatsResponse, UsageResponse } from './api-types.js';
import { hitCallId, hitSessionId, hitSnippet } from './mapping.js';
import { type StatsFilter, statsResponse } from './stats-response.js';
import { usageResponse } from './usage-response.js';

export const queryMethods = [
  'getSession',
  'listSessions',
  'pageSessions',
  'sessionTotals',
  'sessionFacets',
  'sessionHeader',
  'sessionCopies',
  'search',
  'calls',
  'issues',
] as const;
export type QueryMethod = (typeof queryMethods)[number];

type Promised<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;

/** The API's index queries; each returns a promise. */
export type IndexQueries = { readonly [K in QueryMethod]: Promised<AgentIndex[K]> } & {
  /** `GET /api/stats`: per-tool statistics plus analytics. */
  readonly statsResponse: (filter: StatsFilter) => Promise<StatsResponse>;
  /** `GET /api/usage`: each response once, priced and grouped (days in `timeZone` when given). */
  readonly usageResponse: (filter: UsageFilter, now: number, timeZone: string | undefined) => Promise<UsageResponse>;
  /**
   * Each session's best hit, snippet included, for the rows a page of a search list shows: a store whose `search`
   * leaves a list's snippets empty (the team server's, which cuts them from transcripts' chunks) has this. A session
   * it returns no hit for is no hit (such a store's list may name sessions it has not read yet).
   */
  readonly searchSnippets?: (
    query: string,
    sessionIds: readonly string[],
    filter: SearchFilter,
  ) => Promise<SearchHit[]>;
};

/**
 * A search list page's rows with their snippets, where the store left them to the rows shown (`searchSnippets`);
 * a row the store then finds no hit for is left out.
 */
export async function withSearchSnippets(
  queries: IndexQueries,
  query: string,
  rows: SessionRow[],
  filter: SearchFilter,
): Promise<SessionRow[]> {
  const bare = rows.filter((r) => !r.snippet).map((r) => r.id);
  if (!queries.searchSnippets || bare.length === 0) return rows;
  const best = new Map((await queries.searchSnippets(query, bare, filter)).map((h) => [hitSessionId(h), h]));
  return rows.flatMap((r) => {
    if (r.snippet) return [r];
    const hit = best.get(r.id);
    return hit ? [{ ...r, snippet: hitSnippet(hit), matchCallId: hitCallId(hit) }] : [];
  });
}

/** The composite queries, answered by name beside `queryMethods`. */
export const responseMethods = ['statsResponse', 'usageResponse'] as const;
export type ResponseMethod = (typeof responseMethods)[number];

/** Runs one query by name (in a worker thread, or in this one for `localQueries`). */
export function runQuery(index: AgentIndex, method: QueryMethod | ResponseMethod, args: readonly unknown[]): unknown {
  if (method === 'statsResponse') return statsResponse(index, args[0] as StatsFilter);
  if (method === 'usageResponse') {
    return usageResponse(index, args[0] as UsageFilter, args[1] as number, args[2] as string | undefined);
  }
  if (!queryMethods.includes(method)) throw new Error(`not a query: ${String(method)}`);
  return (index[method] as (...a: unknown[]) => unknown)(...args);
}

/** The queries over `index`, in this thread: each by name through `runQuery`, as the worker answers them. */
export function localQueries(index: AgentIndex): IndexQueries {
  const entries = [...queryMethods, ...responseMethods].map((method) => [
    method,
    async (...args: unknown[]) => await runQuery(index, method, args),
  ]);
  return Object.fromEntries(entries) as unknown as IndexQueries;
}
