/** One page of the sessions list, sorted and counted in SQL, so a list of 50,000 sessions costs one page's rows. */

import { type AgentId, agentIds } from '@agentdash/core/base';
import { type AgentVersions, agentVersionFacets, valuesByAgent } from '@agentdash/core/present';
import { prepared } from '../schema/statements.js';
import type { SessionFilter, SessionSummary } from '../types.js';
import { countedInAnotherHome } from './home-copies.js';
import { CALL_FACTS, ERROR_COUNTS, OWN_MESSAGES, OWN_MODEL, type Store, scopeSql } from './scope.js';
import { LIVE_WINDOW_MS, type SessionRow, summariesOf } from './session-queries.js';

export const sessionSorts = [
  'startedAt',
  'endedAt',
  'title',
  'project',
  'durationMs',
  'messages',
  'toolCalls',
  'errors',
  'costUsd',
] as const;
export type SessionSort = (typeof sessionSorts)[number];

const ORDER = {
  startedAt: 'coalesce(s.started_ms, 0)',
  endedAt: 'coalesce(s.ended_ms, s.started_ms, 0)',
  title: "lower(coalesce(s.title, ''))",
  project: 'coalesce(s.project_path, s.project_dir)',
  // the wall time the list shows (`SessionSummary.durationMs`: the main thread's, in `time`; 0 is unknown, with none)
  durationMs: "coalesce(nullif(json_extract(s.time, '$.wallMs'), 0), -1)",
  messages: OWN_MESSAGES,
  toolCalls: 's.tool_calls',
  // errors that are not expected ones, as the list shows them, and the requests the agent gave up on
  errors: 's.errors - s.expected_errors + s.api_errors',
  // priced from the stored usage with the index's prices (a SQL function: prices may come from --prices); unpriced
  // sessions (null, here -1) come after every priced one either way (UNKNOWN_LAST). A cost that is a lower bound
  // (core's `costIsLowerBound`: a model without a price, responses that recorded no input or kept only the stream's
  // first output count) sorts by its known part, the figure the row shows before its `+ ?`: what it leaves out is
  // unknown, so no other place would be truer, and the row stays marked wherever it sorts
  // (`SessionSummary.unpricedModels`, `inputUnrecordedModels`, `outputUnrecordedModels`). The team's list orders alike.
  costUsd: 'coalesce(session_cost(s.usage_detail, s.models, s.messages - s.prompts), -1)',
} as const satisfies Record<SessionSort, string>;

/**
 * The sorts whose order gives an unknown value -1 (a wall time or a cost not known): such sessions come last whichever
 * way the list is sorted (the cheapest first are the cheapest known, not those of no price). The team's list too.
 */
export const UNKNOWN_LAST: ReadonlySet<SessionSort> = new Set(['durationMs', 'costUsd']);

/**
 * The SQL, over a list's row `s` and the sort's `order`, true of a session whose value is unknown: it comes last
 * whichever way the list is sorted. A cost or wall time of -1 (`UNKNOWN_LAST`); a session without a title (the list's
 * "Untitled session", first by title before, ahead of every titled one). Valid in SQLite and PostgreSQL (the team's
 * list uses it too); undefined when the sort has no unknown value.
 */
export function unknownLastSql(sort: SessionSort, order: string): string | undefined {
  if (UNKNOWN_LAST.has(sort)) return `(${order}) = -1`;
  return sort === 'title' ? 's.title IS NULL' : undefined;
}

export interface SessionPageQuery {
  readonly offset?: number;
  /** Rows in the page (default 100). */
  readonly limit?: number;
  /** Default `startedAt`. */
  readonly sort?: SessionSort;
  /** Default true. */
  readonly descending?: boolean;
  /** The filter's totals when the caller already has them (cached): they are not counted again. */
  readonly known?: SessionTotals;
}

/**
 * Counts over all the sessions a filter selects (not just one page): each call once, as `stats` counts them (a
 * session copied in another home lists its calls in each copy's row, and the sums count them once: home-copies.ts).
 */
export interface SessionTotals {
  /** Sessions the filter selects. */
  readonly total: number;
  readonly totals: {
    readonly toolCalls: number;
    readonly errors: number;
    readonly expectedErrors: number;
    /** Requests the agents gave up on (`SessionSummary.apiErrors`); absent where the source does not tell (a team). */
    readonly apiErrors?: number;
    /** Sessions being written now (as `SessionSummary.isLive`: appended to, or a record written, within LIVE_WINDOW_MS). */
    readonly live: number;
  };
}

export interface SessionPage extends SessionTotals {
  readonly offset: number;
  readonly sessions: readonly SessionSummary[];
}

export interface SessionFacets {
  /** Project paths (the project folder when a session has none), sorted. */
  readonly projects: readonly string[];
  readonly models: readonly string[];
  /** Every client version, oldest first. */
  readonly versions: readonly string[];
  /** Each agent that has a session, in the registry's order, with its versions. */
  readonly agents: readonly AgentVersions<AgentId>[];
}

/** How many sessions `filter` selects, with sums over them. */
export function sessionTotals(store: Store, filter: SessionFilter): SessionTotals {
  const scoped = scopeSql(filter);
  const agg = prepared(
    store.db,
    `SELECT COUNT(*) AS total, coalesce(SUM(s.tool_calls), 0) AS toolCalls, coalesce(SUM(s.errors), 0) AS errors,
         coalesce(SUM(s.expected_errors), 0) AS expectedErrors, coalesce(SUM(s.api_errors), 0) AS apiErrors,
         coalesce(SUM(s.ended_ms > ? OR EXISTS (SELECT 1 FROM files lf WHERE lf.session_id = s.id
           AND lf.appended_ms > ?)), 0) AS live
       FROM sessions s WHERE ${scoped.sql}`,
  ).get(store.now() - LIVE_WINDOW_MS, store.now() - LIVE_WINDOW_MS, ...scoped.params) as {
    total: number;
    toolCalls: number;
    errors: number;
    expectedErrors: number;
    apiErrors: number;
    live: number;
  };
  // A session's calls are its own in its home (write/sessions.ts): a call another home's copy counts is left out of
  // the sums, as `stats` and `analytics` leave it out (home-copies.ts).
  const elsewhere = countedInAnotherHome(store, filter);
  const copied =
    elsewhere === undefined
      ? { toolCalls: 0, errors: 0, expectedErrors: 0 }
      : (prepared(
          store.db,
          `SELECT COUNT(*) AS toolCalls, ${ERROR_COUNTS}
             FROM ${CALL_FACTS} WHERE cf.has_result IS NOT NULL
               AND cff.session_id IN (SELECT s.id FROM sessions s WHERE ${scoped.sql}) AND ${elsewhere.sql}`,
        ).get(...scoped.params, ...elsewhere.params) as { toolCalls: number; errors: number; expectedErrors: number });
  return {
    total: agg.total,
    totals: {
      toolCalls: agg.toolCalls - copied.toolCalls,
      errors: agg.errors - copied.errors,
      expectedErrors: agg.expectedErrors - copied.expectedErrors,
      apiErrors: agg.apiErrors,
      live: agg.live,
    },
  };
}

/** A page of the sessions `filter` selects (its `limit` is ignored: the page has its own), with totals. */
export function pageSessions(store: Store, filter: SessionFilter, query: SessionPageQuery = {}): SessionPage {
  const scoped = scopeSql(filter);
  const offset = Math.max(0, Math.floor(query.offset ?? 0));
  const limit = Math.max(0, Math.floor(query.limit ?? 100));
  const dir = query.descending === false ? 'ASC' : 'DESC';
  const sort = query.sort ?? 'startedAt';
  const order = ORDER[sort];
  // a sort whose unknown value is -1 puts those sessions last in either direction, not first when ascending
  const unknown = unknownLastSql(sort, order);
  const unknownLast = unknown === undefined ? '' : `${unknown}, `;
  const rows = prepared(
    store.db,
    `SELECT * FROM sessions s WHERE ${scoped.sql} ORDER BY ${unknownLast}${order} ${dir}, s.id ${dir} LIMIT ? OFFSET ?`,
  ).all(...scoped.params, limit, offset) as SessionRow[];
  const counted = query.known ?? sessionTotals(store, filter);
  return { ...counted, offset, sessions: summariesOf(store, rows) };
}

/** The distinct projects, models and client versions of the sessions `filter` selects, for filter menus. */
export function sessionFacets(store: Store, filter: SessionFilter): SessionFacets {
  const scoped = scopeSql(filter);
  const pairs = (sql: string) =>
    valuesByAgent(prepared(store.db, sql).all(...scoped.params) as { agent: AgentId; value: string | null }[]);
  const facets = agentVersionFacets(
    prepared(
      store.db,
      `SELECT DISTINCT s.agent AS agent, m.value AS version FROM sessions s LEFT JOIN json_each(s.versions) m
       WHERE ${scoped.sql}`,
    ).all(...scoped.params) as { agent: AgentId; version: string | null }[],
    agentIds,
  );
  const modelsBy = pairs(
    `SELECT DISTINCT s.agent AS agent, m.value AS value FROM sessions s, json_each(s.models) m
     WHERE ${OWN_MODEL('m')} AND ${scoped.sql}`,
  );
  const projectsBy = pairs(
    `SELECT DISTINCT s.agent AS agent, coalesce(s.project_path, s.project_dir) AS value FROM sessions s WHERE ${scoped.sql}`,
  );
  const all = (by: Map<AgentId, string[]>) => [...new Set([...by.values()].flat())].sort();
  return {
    projects: all(projectsBy),
    models: all(modelsBy),
    // each agent that has a session, with its versions (one agent's `0.6.1` is not another's), models and projects
    agents: facets.agents.map((a) => ({
      ...a,
      models: modelsBy.get(a.agent) ?? [],
      projects: projectsBy.get(a.agent) ?? [],
    })),
    versions: facets.versions,
  };
}
