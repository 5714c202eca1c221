/**
 * Call analytics computed in SQLite: calls and errors per time bucket, project and tool, a duration histogram and
 * error categories, each a GROUP BY over the calls that hold their fact (no call row reaches JavaScript).
 */

import { prepared } from '../schema/statements.js';
import type {
  AnalyticsBucket,
  AnalyticsCategory,
  AnalyticsFilter,
  AnalyticsProject,
  AnalyticsTool,
  CallAnalytics,
  CallCounts,
} from '../types.js';
import { onceAcrossHomes } from './home-copies.js';
import {
  CALL_FACTS,
  callScopeWhere,
  ERROR_COUNTS,
  IS_ERROR,
  type Store,
  sessionsOfCallScope,
  withoutCoveringCallPaths,
} from './scope.js';

const DEFAULT_DURATION_BOUNDS_MS: readonly number[] = [100, 1_000, 5_000, 30_000, 120_000];

const COUNTS = `COUNT(*) AS calls, ${ERROR_COUNTS}`;
/** Ties in a ranking go to the group with the most recent call; groups without timestamps come last. */
const RECENT_FIRST = 'MAX(cf.ts_ms) IS NULL, MAX(cf.ts_ms) DESC';

function checkedBucketMs(value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`bucketMs must be a positive number: ${value}`);
  return value;
}

function checkedBounds(bounds: readonly number[]): readonly number[] {
  bounds.forEach((bound, i) => {
    if (!Number.isFinite(bound) || (i > 0 && bound <= (bounds[i - 1] ?? bound))) {
      throw new RangeError(`durationBoundsMs must be finite and ascending: ${bounds.join(', ')}`);
    }
  });
  return bounds;
}

/** SQL: the histogram bin of `cf.duration_ms` (NULL without a duration). Bounds are checked numbers. */
function binSql(bounds: readonly number[]): string {
  const whens = bounds.map((bound, i) => `WHEN cf.duration_ms < ${bound} THEN ${i}`).join(' ');
  return `(CASE WHEN cf.duration_ms IS NULL THEN NULL ${whens} ELSE ${bounds.length} END)`;
}

interface ToolRow {
  readonly tool: string;
  readonly calls: number;
  readonly errors: number;
  readonly expectedErrors: number;
  readonly [bin: `bin${number}`]: number;
}

export function analytics(store: Store, filter: AnalyticsFilter): CallAnalytics {
  const bounds = checkedBounds(filter.durationBoundsMs ?? DEFAULT_DURATION_BOUNDS_MS);
  // Paths that hold every stored file test nothing when no project is chosen: left out, the queries read the calls
  // alone, much faster over a large home.
  const scope = withoutCoveringCallPaths(store, filter, { project: filter.project });
  const where = onceAcrossHomes(store, callScopeWhere(scope), sessionsOfCallScope(scope), scope.sessionId);
  /** `SELECT columns FROM` the calls in scope (`CALL_FACTS`, its session `ses`) `rest`: conditions, grouping. */
  const select = <T>(columns: string, rest = ''): T[] =>
    prepared(
      store.db,
      `SELECT ${columns} FROM ${CALL_FACTS} JOIN sessions ses ON ses.id = cff.session_id WHERE ${where.sql} ${rest}`,
    ).all(...where.params) as T[];

  const [totals] = select<CallCounts & { firstMs: number | null; lastMs: number | null }>(
    `${COUNTS}, MIN(cf.ts_ms) AS firstMs, MAX(cf.ts_ms) AS lastMs`,
  );
  const firstMs = totals?.firstMs ?? null;
  const lastMs = totals?.lastMs ?? null;
  const spanMs = firstMs !== null && lastMs !== null ? lastMs - firstMs : 0;
  const bucketMs = checkedBucketMs(typeof filter.bucketMs === 'function' ? filter.bucketMs(spanMs) : filter.bucketMs);

  const offset = filter.bucketOffsetMs ?? 0;
  if (!Number.isFinite(offset)) throw new RangeError(`bucketOffsetMs must be a finite number: ${offset}`);
  const buckets = select<AnalyticsBucket>(
    `CAST((cf.ts_ms - ${offset}) / ${bucketMs} AS INTEGER) * ${bucketMs} + ${offset} AS startMs, ${COUNTS}`,
    'GROUP BY startMs ORDER BY startMs IS NULL, startMs',
  );
  const projects = select<AnalyticsProject>(
    `coalesce(ses.project_path, ses.project_dir) AS project, COUNT(DISTINCT cff.session_id) AS sessions, ${COUNTS}`,
    `GROUP BY project ORDER BY calls DESC, ${RECENT_FIRST}, project`,
  );
  const bin = binSql(bounds);
  const bins = Array.from({ length: bounds.length + 1 }, (_, i) => i);
  const toolRows = select<ToolRow>(
    `cf.canonical_name AS tool, ${COUNTS}, ${bins.map((i) => `coalesce(SUM(${bin} = ${i}), 0) AS bin${i}`).join(', ')}`,
    `GROUP BY tool ORDER BY calls DESC, ${RECENT_FIRST}, tool`,
  );
  const categories = select<AnalyticsCategory>(
    "coalesce(cf.category, 'other') AS category, coalesce(cf.severity, 'error') AS severity, COUNT(*) AS count",
    `AND ${IS_ERROR} GROUP BY 1, 2 ORDER BY count DESC, ${RECENT_FIRST}, category, severity`,
  );

  const durations = bins.map(() => 0);
  const tools = toolRows.map((r): AnalyticsTool => {
    const perBin = bins.map((i) => r[`bin${i}`] ?? 0);
    for (const i of bins) durations[i] = (durations[i] ?? 0) + (perBin[i] ?? 0);
    return { tool: r.tool, calls: r.calls, errors: r.errors, expectedErrors: r.expectedErrors, durations: perBin };
  });
  return {
    calls: totals?.calls ?? 0,
    errors: totals?.errors ?? 0,
    expectedErrors: totals?.expectedErrors ?? 0,
    firstMs,
    lastMs,
    bucketMs,
    buckets,
    projects,
    tools,
    durationBoundsMs: bounds,
    durations,
    categories,
  };
}
