/**
 * The index queries the API runs, as promises: in this thread (tests, `:memory:` indexes) or in a worker thread
 * (`startServer`), so a heavy query — search, statistics, a page of 50,000 sessions — never blocks the event loop.
 */
import type { AgentIndex } from '@agentdash/index';
import type { StatsResponse } from './api-types.js';
import { type StatsFilter, statsResponse } from './stats-response.js';

export const queryMethods = [
  'getSession',
  'listSessions',
  'pageSessions',
  'sessionTotals',
  'sessionFacets',
  'sessionToolCounts',
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
};

/** The queries over `index`, in this thread. */
export function localQueries(index: AgentIndex): IndexQueries {
  const run =
    <K extends QueryMethod>(method: K) =>
    async (...args: Parameters<AgentIndex[K]>): Promise<Awaited<ReturnType<AgentIndex[K]>>> =>
      await (index[method] as (...a: Parameters<AgentIndex[K]>) => ReturnType<AgentIndex[K]>)(...args);
  return {
    getSession: run('getSession'),
    listSessions: run('listSessions'),
    pageSessions: run('pageSessions'),
    sessionTotals: run('sessionTotals'),
    sessionFacets: run('sessionFacets'),
    sessionToolCounts: run('sessionToolCounts'),
    search: run('search'),
    calls: run('calls'),
    issues: run('issues'),
    statsResponse: async (filter) => statsResponse(index, filter),
  } as IndexQueries;
}

/** Runs one query by name (in a worker thread). */
export function runQuery(index: AgentIndex, method: QueryMethod | 'statsResponse', args: readonly unknown[]): unknown {
  if (method === 'statsResponse') return statsResponse(index, args[0] as StatsFilter);
  if (!queryMethods.includes(method)) throw new Error(`not a query: ${String(method)}`);
  return (index[method] as (...a: unknown[]) => unknown)(...args);
}
