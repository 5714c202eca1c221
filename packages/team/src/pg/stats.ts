/**
 * The statistics page's sources over pushed calls: the calls of the sessions a filter selects, loaded once per
 * request, then counted as the local index counts them (its `stats` and `analytics`: nearest-rank percentiles,
 * errors by category, time buckets, duration bins, the same orders), for the server's `statsResponse`.
 */
import {
  type AnalyticsFilter,
  type CallAnalytics,
  type CanonicalToolStat,
  type OwningSession,
  ownsBefore,
  type SessionFilter,
  type SessionTotals,
  type ToolStat,
  type ToolStats,
} from '@agentdash/index';
import type { StatsSource } from '@agentdash/server';
import type { Sql } from './db.js';
import { FROM, LIST_FROM, shownSql, type TeamFilter, whereOf } from './session-sql.js';
import { toolMatcher } from './tool-filter.js';

interface CallRow {
  readonly uid: string;
  readonly person_id: string;
  readonly session_id: string;
  readonly ended_ms: number | null;
  readonly call_id: string;
  readonly agent: string;
  readonly project: string;
  readonly started_ms: number | null;
  readonly active_ms: number | null;
  readonly tool: string;
  readonly canonical: string;
  readonly status: string;
  readonly category: string | null;
  readonly severity: string | null;
  readonly duration_ms: number | null;
  readonly ts_ms: number | null;
}

interface SessionRow {
  readonly uid: string;
  readonly agent: string;
  readonly started_ms: number | null;
  readonly active_ms: number | null;
  /** Whether the sessions list shows it (`shownSql`). */
  readonly shown: boolean;
}

const toMs = (t: unknown): number | undefined => {
  if (t === undefined) return undefined;
  const ms = typeof t === 'number' ? t : Date.parse(String(t));
  return Number.isFinite(ms) ? ms : undefined;
};

function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? null;
}

const isError = (c: CallRow) => c.status === 'error';
const isExpected = (c: CallRow) => isError(c) && c.severity === 'expected';

/** A session is in a session filter's period as the index says: active at or after since, started by until. */
const inPeriod = (s: { started_ms: number | null; active_ms: number | null }, since?: number, until?: number) =>
  (since === undefined || (s.active_ms !== null && s.active_ms >= since)) &&
  (until === undefined || (s.started_ms !== null && s.started_ms <= until));

function toolStat(calls: readonly CallRow[], canonicalName: string): ToolStat & { sorted: number[] } {
  const sorted = calls.flatMap((c) => (c.duration_ms === null ? [] : [c.duration_ms])).sort((a, b) => a - b);
  const errors = calls.filter(isError).length;
  const categories: Record<string, number> = {};
  for (const c of calls.filter(isError))
    categories[c.category ?? 'other'] = (categories[c.category ?? 'other'] ?? 0) + 1;
  return {
    calls: calls.length,
    errors,
    expectedErrors: calls.filter(isExpected).length,
    errorRate: calls.length === 0 ? 0 : errors / calls.length,
    durationMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? null },
    categories: Object.fromEntries(Object.entries(categories).sort(([a], [b]) => (a < b ? -1 : 1))),
    canonicalName,
    paired: calls.filter((c) => c.status === 'ok' || c.status === 'error').length,
    sorted,
  };
}

const groupBy = <T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> => {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
};

/** Most calls first; ties to the group with the most recent call, then by name (the index's order). */
const ranked = <T extends { calls: number; recent: number; name: string }>(rows: T[]) =>
  rows.sort((a, b) => b.calls - a.calls || b.recent - a.recent || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

const recentOf = (calls: readonly CallRow[]) => Math.max(-1, ...calls.map((c) => c.ts_ms ?? -1));
const counts = (calls: readonly CallRow[]) => ({
  calls: calls.length,
  errors: calls.filter(isError).length,
  expectedErrors: calls.filter(isExpected).length,
});

/**
 * Each call once, where a person pushed one call twice (a session kept in two agent homes of a laptop, a backup
 * beside the live one, or synced to two devices; a resumed session in one home whose original is in the other): the
 * same call id of the same agent. Each copy keeps its own calls in the list; a count over both counts each call once,
 * as the laptop's index does (`countedInAnotherHome`, which needs no same session id either), in the copy that owns
 * it by the index's rule (`ownsBefore`, keyed by uid here). Within one home the laptop pushes each call with the
 * session that owns it already.
 */
function onceAcrossCopies(rows: readonly CallRow[]): CallRow[] {
  const owner = new Map<string, CallRow>();
  const keyOf = (c: CallRow) => `${c.person_id}\u0000${c.agent}\u0000${c.call_id}`;
  const owning = (c: CallRow): OwningSession => [
    c.uid,
    c.session_id,
    c.project,
    c.agent,
    Number(c.started_ms ?? 0),
    Number(c.ended_ms ?? 0),
    '',
  ];
  const before = (a: CallRow, b: CallRow) => ownsBefore(owning(a), owning(b));
  for (const c of rows) {
    const held = owner.get(keyOf(c));
    if (held === undefined || (held.uid !== c.uid && before(c, held))) owner.set(keyOf(c), c);
  }
  return rows.filter((c) => owner.get(keyOf(c))?.uid === c.uid);
}

/** The calls and sessions of `filter` (any agent, any period: the builders narrow), as a sync stats source. */
export async function statsSourceOf(sql: Sql, filter: TeamFilter): Promise<StatsSource> {
  const base = { ...filter, agent: undefined, since: undefined, until: undefined };
  const where = whereOf(sql, base);
  const calls = onceAcrossCopies(
    await sql<CallRow[]>`
    select s.uid, s.person_id::text as person_id, s.session_id, s.ended_ms, c.call_id, s.agent,
      coalesce(s.project_path, s.project_dir, '#' || left(s.project_hash, 8)) as project,
      s.started_ms, coalesce(s.ended_ms, s.started_ms) as active_ms, c.tool, c.canonical, c.status, c.category,
      c.severity, c.duration_ms, c.ts_ms
    from ${sql.unsafe(FROM)} join calls c on c.person_id = s.person_id and c.uid = s.uid where ${where}`,
  );
  // Each with whether the list shows it (`stats` counts only those, as the index does), from the list's columns.
  const sessions = await sql<SessionRow[]>`
    select s.uid, s.agent, s.started_ms, coalesce(s.ended_ms, s.started_ms) as active_ms,
      coalesce(${shownSql(sql)}, false) as shown
    from ${sql.unsafe(LIST_FROM)} where ${where}`;

  const sessionsOf = (f: SessionFilter) =>
    sessions.filter((s) => (!f.agent || s.agent === f.agent) && inPeriod(s, toMs(f.since), toMs(f.until)));

  const stats = (f: SessionFilter & { readonly tool?: string }): ToolStats => {
    const since = toMs(f.since);
    const until = toMs(f.until);
    // the calls made in the period, as `analytics` and the local index count them
    const ofTool = toolMatcher(f.tool);
    const mine = calls.filter(
      (c) =>
        (!f.agent || c.agent === f.agent) &&
        ofTool(c) &&
        inPeriod(c, since, until) &&
        (since === undefined || (c.ts_ms !== null && c.ts_ms >= since)) &&
        (until === undefined || (c.ts_ms !== null && c.ts_ms <= until)),
    );
    const tools: Record<string, ToolStat> = {};
    for (const [name, list] of [...groupBy(mine, (c) => c.tool)].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const { sorted: _sorted, ...stat } = toolStat(
        list,
        list.reduce((m, c) => (c.canonical < m ? c.canonical : m), list[0]!.canonical),
      );
      tools[name] = stat;
    }
    const byCanonical: Record<string, CanonicalToolStat> = {};
    // canonical tools in the order of their first name (the index groups its per-name rows, sorted by name)
    const byName = [...mine].sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
    for (const [canonical, list] of groupBy(byName, (c) => c.canonical)) {
      const { sorted: _sorted, ...stat } = toolStat(list, canonical);
      byCanonical[canonical] = { ...stat, names: [...new Set(list.map((c) => c.tool))].sort() };
    }
    return {
      sessions: sessionsOf(f).filter((s) => s.shown).length,
      ...counts(mine),
      paired: mine.filter((c) => c.status === 'ok' || c.status === 'error').length,
      tools,
      byCanonical,
    };
  };

  const analytics = (f: AnalyticsFilter): CallAnalytics => {
    const since = toMs(f.since);
    const until = toMs(f.until);
    const mine = calls.filter(
      (c) =>
        (!f.agent || c.agent === f.agent) &&
        (since === undefined || (c.ts_ms !== null && c.ts_ms >= since)) &&
        (until === undefined || (c.ts_ms !== null && c.ts_ms <= until)),
    );
    const times = mine.flatMap((c) => (c.ts_ms === null ? [] : [c.ts_ms]));
    const firstMs = times.length > 0 ? Math.min(...times) : null;
    const lastMs = times.length > 0 ? Math.max(...times) : null;
    const bucketMs =
      typeof f.bucketMs === 'function' ? f.bucketMs(firstMs === null ? 0 : lastMs! - firstMs) : f.bucketMs;
    const offset = f.bucketOffsetMs ?? 0;
    const bounds = f.durationBoundsMs ?? [];
    const binOf = (ms: number) => {
      const i = bounds.findIndex((b) => ms < b);
      return i === -1 ? bounds.length : i;
    };
    const startOf = (c: CallRow) =>
      c.ts_ms === null ? 'null' : String(Math.trunc((c.ts_ms - offset) / bucketMs) * bucketMs + offset);
    const buckets = [...groupBy(mine, startOf)]
      .map(([start, list]) => ({ startMs: start === 'null' ? null : Number(start), ...counts(list) }))
      .sort((a, b) => (a.startMs === null ? 1 : b.startMs === null ? -1 : a.startMs - b.startMs));
    const projects = ranked(
      [...groupBy(mine, (c) => c.project)].map(([project, list]) => ({
        project,
        sessions: new Set(list.map((c) => c.uid)).size,
        ...counts(list),
        recent: recentOf(list),
        name: project,
      })),
    ).map(({ recent: _r, name: _n, ...p }) => p);
    const durations = Array.from({ length: bounds.length + 1 }, () => 0);
    const tools = ranked(
      [...groupBy(mine, (c) => c.canonical)].map(([tool, list]) => {
        const perBin = Array.from({ length: bounds.length + 1 }, () => 0);
        for (const c of list) if (c.duration_ms !== null) perBin[binOf(c.duration_ms)]! += 1;
        return { tool, ...counts(list), durations: perBin, recent: recentOf(list), name: tool };
      }),
    ).map(({ recent: _r, name: _n, ...t }) => {
      t.durations.forEach((n, i) => {
        durations[i]! += n;
      });
      return t;
    });
    const categories = [
      ...groupBy(mine.filter(isError), (c) => `${c.category ?? 'other'}\u0000${c.severity ?? 'error'}`),
    ]
      .map(([key, list]) => {
        const [category = 'other', severity = 'error'] = key.split('\u0000');
        return { category, severity, count: list.length, recent: recentOf(list), key };
      })
      .sort((a, b) => b.count - a.count || b.recent - a.recent || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ category, severity, count }) => ({ category, severity, count }));
    return {
      ...counts(mine),
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
  };

  const sessionTotals = (f: SessionFilter = {}): SessionTotals => {
    const mine = sessionsOf(f);
    const ids = new Set(mine.map((s) => s.uid));
    const theirs = calls.filter((c) => ids.has(c.uid));
    return {
      total: mine.length,
      totals: {
        toolCalls: theirs.length,
        errors: counts(theirs).errors,
        expectedErrors: counts(theirs).expectedErrors,
        live: 0,
      },
    };
  };

  return { stats, analytics, sessionTotals };
}
