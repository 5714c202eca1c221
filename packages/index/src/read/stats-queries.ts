/** Tool calls as stored: per-tool statistics (counts, error rates, duration percentiles) and call listings. */
import { idOfKey } from '../file-row.js';
import { prepared } from '../schema/statements.js';
import type {
  CallFilter,
  CallRow,
  CallRowStatus,
  CanonicalToolStat,
  SessionFilter,
  ToolStat,
  ToolStats,
} from '../types.js';
import { onceAcrossHomes } from './home-copies.js';
import { percentile } from './percentile.js';
import {
  CALL_FACTS,
  callScopeWhere,
  ERROR_COUNTS,
  IS_ERROR,
  limitSql,
  type Store,
  scopeSql,
  sessionCallsWhere,
  sessionsOfCallScope,
  toMs,
  withoutCoveringCallPaths,
} from './scope.js';
import { isLiveSession, refsOf } from './session-queries.js';

export function stats(store: Store, requested: SessionFilter & { readonly tool?: string } = {}): ToolStats {
  const filter = withoutCoveringCallPaths(store, requested, requested);
  // The calls made in the period (as Analytics, the charts of the same answer, and usage's responses count it), of
  // the sessions the other filters choose: a session active since a day counts its calls of that day on, not all.
  const where = onceAcrossHomes(store, sessionCallsWhere(filter, filter.tool), filter)
    .when(toMs(filter.since), 'cf.ts_ms >= ?')
    .when(toMs(filter.until), 'cf.ts_ms <= ?');
  // Counts per tool in SQL; only the durations come into JavaScript (for nearest-rank percentiles).
  const rows = prepared(
    store.db,
    `SELECT cf.name, MIN(cf.canonical_name) AS canonical_name, COUNT(*) AS calls, SUM(cf.has_result) AS paired,
         ${ERROR_COUNTS}
       FROM ${CALL_FACTS} WHERE ${where.sql} GROUP BY cf.name ORDER BY cf.name`,
  ).all(...where.params) as {
    name: string;
    canonical_name: string;
    calls: number;
    paired: number;
    errors: number;
    expectedErrors: number;
  }[];
  const categoryRows = prepared(
    store.db,
    `SELECT cf.name, coalesce(cf.category, 'other') AS category, COUNT(*) AS n
       FROM ${CALL_FACTS} WHERE ${where.sql} AND ${IS_ERROR} GROUP BY cf.name, category ORDER BY cf.name, category`,
  ).all(...where.params) as { name: string; category: string; n: number }[];
  const durationRows = prepared(
    store.db,
    `SELECT cf.name, cf.duration_ms FROM ${CALL_FACTS} WHERE ${where.sql} AND cf.duration_ms IS NOT NULL
       ORDER BY cf.name, cf.duration_ms`,
    'raw',
  ).all(...where.params) as [string, number][];
  // The sessions the list shows (`hideEmpty`: not the empty and warm-up ones it hides), as Analytics counts them.
  const scoped = scopeSql({ ...filter, hideEmpty: true });
  const sessions = prepared(store.db, `SELECT COUNT(*) FROM sessions s WHERE ${scoped.sql}`, 'pluck').get(
    ...scoped.params,
  ) as number;
  const durations = new Map<string, number[]>();
  for (const [name, ms] of durationRows) {
    const list = durations.get(name);
    if (list) list.push(ms);
    else durations.set(name, [ms]);
  }
  const categories = new Map<string, Record<string, number>>();
  for (const r of categoryRows) {
    const byCategory = categories.get(r.name) ?? {};
    byCategory[r.category] = r.n;
    categories.set(r.name, byCategory);
  }
  const tools: Record<string, ToolStat> = {};
  let calls = 0;
  let paired = 0;
  let errors = 0;
  let expected = 0;
  for (const r of rows) {
    const sorted = durations.get(r.name) ?? [];
    calls += r.calls;
    paired += r.paired;
    errors += r.errors;
    expected += r.expectedErrors;
    tools[r.name] = {
      calls: r.calls,
      errors: r.errors,
      expectedErrors: r.expectedErrors,
      errorRate: r.calls === 0 ? 0 : r.errors / r.calls,
      durationMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? null },
      categories: categories.get(r.name) ?? {},
      canonicalName: r.canonical_name,
      paired: r.paired,
    };
  }
  return {
    sessions,
    calls,
    paired,
    errors,
    expectedErrors: expected,
    tools,
    byCanonical: byCanonical(tools, durations),
  };
}

/**
 * The same statistics per canonical tool (`Task` and `Agent` are one tool), with the names as written; percentiles
 * over the merged durations.
 */
function byCanonical(
  tools: Readonly<Record<string, ToolStat>>,
  durations: ReadonlyMap<string, readonly number[]>,
): Record<string, CanonicalToolStat> {
  const groups = new Map<string, string[]>();
  for (const [name, t] of Object.entries(tools)) {
    const names = groups.get(t.canonicalName);
    if (names) names.push(name);
    else groups.set(t.canonicalName, [name]);
  }
  const out: Record<string, CanonicalToolStat> = {};
  for (const [canonical, names] of groups) {
    const members = names.map((n) => tools[n]).filter((t): t is ToolStat => t !== undefined);
    const sum = (f: (t: ToolStat) => number) => members.reduce((a, t) => a + f(t), 0);
    const categories: Record<string, number> = {};
    for (const t of members)
      for (const [k, n] of Object.entries(t.categories)) categories[k] = (categories[k] ?? 0) + n;
    const sorted = names.flatMap((n) => durations.get(n) ?? []).sort((a, b) => a - b);
    const calls = sum((t) => t.calls);
    const errors = sum((t) => t.errors);
    out[canonical] = {
      calls,
      errors,
      expectedErrors: sum((t) => t.expectedErrors),
      errorRate: calls === 0 ? 0 : errors / calls,
      durationMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? null },
      categories,
      canonicalName: canonical,
      paired: sum((t) => t.paired),
      names: names.sort(),
    };
  }
  return out;
}

interface CallFactRow {
  tool_use_id: string;
  session_id: string;
  line: number;
  name: string;
  canonical_name: string;
  ts: string | null;
  agent_id: string | null;
  has_result: number;
  is_error: number;
  category: string | null;
  severity: 'expected' | 'error' | null;
  error_message: string | null;
  exit_code: number | null;
  duration_ms: number | null;
  summary: string;
  file: string;
  project_path: string | null;
  ended_ms: number | null;
  appended_ms: number | null;
}

export function calls(store: Store, filter: CallFilter = {}): CallRow[] {
  const scope = withoutCoveringCallPaths(store, filter, { project: filter.project });
  const where = onceAcrossHomes(store, callScopeWhere(scope), sessionsOfCallScope(scope), scope.sessionId)
    .when(filter.category, 'cf.category = ?')
    .when(filter.severity, 'cf.severity = ?');
  switch (filter.status) {
    case undefined:
      break;
    case 'ok':
      where.add('cf.has_result = 1 AND cf.is_error = 0');
      break;
    case 'error':
      where.add(IS_ERROR);
      break;
    case 'pending':
    case 'unanswered':
      where.add('cf.has_result = 0');
      break;
    default:
      filter.status satisfies never;
  }
  const rows = prepared(
    store.db,
    `SELECT cf.*, cff.session_id, cff.path AS file, s.project_path, s.ended_ms,
         (SELECT MAX(m.appended_ms) FROM files m WHERE m.session_id = cff.session_id) AS appended_ms
       FROM ${CALL_FACTS} LEFT JOIN sessions s ON s.id = cff.session_id
       WHERE ${where.sql} ORDER BY cf.ts_ms ${filter.oldestFirst ? 'ASC' : 'DESC'}, cf.tool_use_id${limitSql(filter.limit)}`,
  ).all(...where.params) as CallFactRow[];
  const out: CallRow[] = [];
  const refOf = refsOf(store);
  for (const r of rows) {
    const live = isLiveSession(store.now(), r.ended_ms, [r.appended_ms]);
    const status: CallRowStatus = r.has_result ? (r.is_error ? 'error' : 'ok') : live ? 'pending' : 'unanswered';
    if (filter.status !== undefined && filter.status !== status) continue;
    out.push({
      sessionId: idOfKey(r.session_id),
      sessionRef: refOf(r.session_id),
      callId: r.tool_use_id,
      tool: r.name,
      canonicalTool: r.canonical_name,
      timestamp: r.ts ?? undefined,
      status,
      category: r.category ?? undefined,
      severity: r.severity ?? undefined,
      errorMessage: r.error_message ?? undefined,
      exitCode: r.exit_code ?? undefined,
      durationMs: r.duration_ms ?? undefined,
      summary: r.summary,
      agentId: r.agent_id ?? undefined,
      projectPath: r.project_path ?? undefined,
      file: r.file,
      line: r.line,
    });
  }
  return out;
}
