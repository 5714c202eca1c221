/** Tool calls as stored: per-tool statistics (counts, error rates, duration percentiles) and call listings. */

import { idOfKey } from './import.js';
import { callScopeWhere, limitSql, type Store, scopeSql, sessionCallsWhere } from './scope.js';
import { isLiveSession, refsOf } from './session-queries.js';
import type { CallFilter, CallRow, CallRowStatus, SessionFilter, ToolStat, ToolStats } from './types.js';

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? null;
}

interface ToolAcc {
  readonly canonicalName: string;
  calls: number;
  paired: number;
  errors: number;
  expected: number;
  readonly durations: number[];
  readonly categories: Record<string, number>;
}

export function stats(store: Store, filter: SessionFilter & { readonly tool?: string } = {}): ToolStats {
  const where = sessionCallsWhere(filter, filter.tool);
  const rows = store.db
    .prepare(
      `SELECT cf.name, cf.canonical_name, cf.has_result, cf.is_error, cf.severity, cf.category, cf.duration_ms
       FROM call_facts cf WHERE ${where.sql}
       ORDER BY cf.name`,
    )
    .all(...where.params) as {
    name: string;
    canonical_name: string;
    has_result: number;
    is_error: number;
    severity: string | null;
    category: string | null;
    duration_ms: number | null;
  }[];
  const scoped = scopeSql(filter);
  const sessions = store.db
    .prepare(`SELECT COUNT(*) FROM sessions s WHERE ${scoped.sql}`)
    .pluck()
    .get(...scoped.params) as number;
  const acc = new Map<string, ToolAcc>();
  let paired = 0;
  let errors = 0;
  let expected = 0;
  for (const r of rows) {
    let t = acc.get(r.name);
    if (!t) {
      t = {
        canonicalName: r.canonical_name,
        calls: 0,
        paired: 0,
        errors: 0,
        expected: 0,
        durations: [],
        categories: {},
      };
      acc.set(r.name, t);
    }
    t.calls += 1;
    if (r.has_result) {
      t.paired += 1;
      paired += 1;
    }
    if (r.is_error) {
      t.errors += 1;
      errors += 1;
      const category = r.category ?? 'other';
      t.categories[category] = (t.categories[category] ?? 0) + 1;
    }
    if (r.severity === 'expected') {
      t.expected += 1;
      expected += 1;
    }
    if (r.duration_ms !== null) t.durations.push(r.duration_ms);
  }
  const tools: Record<string, ToolStat> = {};
  for (const [name, t] of acc) {
    const sorted = [...t.durations].sort((a, b) => a - b);
    tools[name] = {
      calls: t.calls,
      errors: t.errors,
      expectedErrors: t.expected,
      errorRate: t.calls === 0 ? 0 : t.errors / t.calls,
      durationMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? null },
      categories: t.categories,
      canonicalName: t.canonicalName,
      paired: t.paired,
    };
  }
  return { sessions, calls: rows.length, paired, errors, expectedErrors: expected, tools };
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
  const where = callScopeWhere(filter)
    .when(filter.category, 'cf.category = ?')
    .when(filter.severity, 'cf.severity = ?');
  switch (filter.status) {
    case undefined:
      break;
    case 'ok':
      where.add('cf.has_result = 1 AND cf.is_error = 0');
      break;
    case 'error':
      where.add('cf.is_error = 1');
      break;
    case 'pending':
    case 'unanswered':
      where.add('cf.has_result = 0');
      break;
    default:
      filter.status satisfies never;
  }
  const rows = store.db
    .prepare(
      `SELECT cf.*, f.path AS file, s.project_path, s.ended_ms,
         (SELECT MAX(m.appended_ms) FROM files m WHERE m.session_id = cf.session_id) AS appended_ms
       FROM call_facts cf JOIN files f ON f.id = cf.file_id LEFT JOIN sessions s ON s.id = cf.session_id
       WHERE ${where.sql} ORDER BY cf.ts_ms DESC, cf.tool_use_id${limitSql(filter.limit)}`,
    )
    .all(...where.params) as CallFactRow[];
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
