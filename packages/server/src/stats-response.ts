import { type AgentId, agentIds } from '@agentdash/core';
import { type MeasuredToolStats, measuredToolStats, type ToolStats } from '@agentdash/index';
import type { AgentIndex } from './agent-index.js';
import type { AgentStatsRow, DurationBucket, StatsResponse, ToolStatRow } from './api-types.js';

/** The duration histogram's bins: label and exclusive upper bound (null: the rest). */
const DURATION_BUCKETS: readonly (readonly [string, number | null])[] = [
  ['< 100 ms', 100],
  ['< 1 s', 1_000],
  ['< 5 s', 5_000],
  ['< 30 s', 30_000],
  ['< 2 min', 120_000],
  ['≥ 2 min', null],
];
const DURATION_BOUNDS_MS = DURATION_BUCKETS.flatMap(([, maxMs]) => (maxMs === null ? [] : [maxMs]));

interface Grain {
  readonly granularity: StatsResponse['granularity'];
  /** The largest time span (first to last call) this grain is used for. */
  readonly maxSpanMs: number;
  readonly bucketMs: number;
  /** A bucket's label from the ISO time of its start (UTC). */
  readonly label: (iso: string) => string;
}

const DAY_MS = 86_400_000;
/** Weeks start on Mondays: 1970-01-05, 4 days after the epoch, was one (a whole number of every other grain). */
const MONDAY_OFFSET_MS = 4 * DAY_MS;

/**
 * Time buckets: 5 minutes for calls spanning up to 6 hours, hours up to 4 days, days up to a year, else weeks (from
 * Monday): a history the archive keeps for years stays a time axis of at most a few hundred bars.
 */
const GRAINS: readonly [Grain, ...Grain[]] = [
  { granularity: 'minute', maxSpanMs: 6 * 3_600_000, bucketMs: 5 * 60_000, label: (iso) => iso.slice(0, 16) },
  { granularity: 'hour', maxSpanMs: 4 * DAY_MS, bucketMs: 3_600_000, label: (iso) => `${iso.slice(0, 13)}:00` },
  { granularity: 'day', maxSpanMs: 366 * DAY_MS, bucketMs: DAY_MS, label: (iso) => iso.slice(0, 10) },
  { granularity: 'week', maxSpanMs: Number.POSITIVE_INFINITY, bucketMs: 7 * DAY_MS, label: (iso) => iso.slice(0, 10) },
];

const grainOfSpan = (spanMs: number): Grain => GRAINS.find((g) => spanMs <= g.maxSpanMs) ?? GRAINS[0];

function histogram(counts: readonly number[]): DurationBucket[] {
  return DURATION_BUCKETS.map(([label, maxMs], i) => ({ label, maxMs, count: counts[i] ?? 0 }));
}

/**
 * One row per canonical tool (Task counts as Agent), percentiles over the merged durations, most called first: as
 * `agentdash stats`, for all agents and for each.
 */
function toolRows(stats: ToolStats): ToolStatRow[] {
  const rows = Object.values(stats.byCanonical).map(
    (t): ToolStatRow => ({
      tool: t.canonicalName,
      names: t.names,
      calls: t.calls,
      errors: t.errors,
      expectedErrors: t.expectedErrors,
      errorRate: t.errorRate,
      p50: t.durationMs.p50,
      p95: t.durationMs.p95,
      max: t.durationMs.max,
      categories: t.categories,
    }),
  );
  return rows.sort((a, b) => b.calls - a.calls);
}

/** What the statistics read: a local index, or a team server's rows loaded for one request. */
export type StatsSource = Pick<AgentIndex, 'stats' | 'analytics' | 'sessionTotals'> &
  Partial<Pick<AgentIndex, 'telemetry' | 'listSessions'>>;

/** What the stats route filters by. */
export interface StatsFilter {
  readonly agent?: AgentId;
  readonly paths?: readonly string[];
  readonly project?: string;
  readonly since?: string;
  readonly until?: string;
  /** A team server's filters (see `IndexFilter`). */
  readonly person?: string;
  readonly device?: string;
}

/**
 * GET /api/stats: per-tool statistics with percentiles from `stats`, and the charts' groupings (time buckets,
 * projects, durations, error categories) from `analytics`, which groups in SQL. In `days` and `projects`, `errors`
 * leaves out the expected ones; in `totals` it counts them.
 */
export function statsResponse(index: StatsSource, filter: StatsFilter): StatsResponse {
  const toolStats = index.stats(filter);
  const tools = toolRows(toolStats);
  const analytics = index.analytics({
    ...filter,
    bucketMs: (spanMs) => grainOfSpan(spanMs).bucketMs,
    bucketOffsetMs: MONDAY_OFFSET_MS,
    durationBoundsMs: DURATION_BOUNDS_MS,
  });
  const grain = GRAINS.find((g) => g.bucketMs === analytics.bucketMs) ?? GRAINS[0];
  return {
    granularity: grain.granularity,
    tools,
    days: analytics.buckets.map((b) => ({
      day: b.startMs === null ? 'unknown' : grain.label(new Date(b.startMs).toISOString()),
      calls: b.calls,
      errors: b.errors - b.expectedErrors,
      expectedErrors: b.expectedErrors,
    })),
    projects: analytics.projects.map((p) => ({
      project: p.project,
      sessions: p.sessions,
      calls: p.calls,
      errors: p.errors - p.expectedErrors,
      expectedErrors: p.expectedErrors,
    })),
    durations: histogram(analytics.durations),
    durationsByTool: Object.fromEntries(
      analytics.tools.filter((t) => t.durations.some((n) => n > 0)).map((t) => [t.tool, histogram(t.durations)]),
    ),
    categories: analytics.categories.map((c) => ({ category: c.category, severity: c.severity, count: c.count })),
    totals: {
      calls: analytics.calls,
      errors: analytics.errors,
      expectedErrors: analytics.expectedErrors,
      sessions: toolStats.sessions,
    },
    agents: agentRows(index, filter, toolStats),
    ...measuredOf(index, filter),
  };
}

/** The runs Claude Code's telemetry measured, of the sessions `filter` selects; nothing without telemetry. */
function measuredOf(index: StatsSource, filter: StatsFilter): { measured?: MeasuredToolStats } {
  const runs = index.telemetry?.measuredToolRuns() ?? [];
  if (runs.length === 0 || index.listSessions === undefined) return {};
  const inScope = new Set(index.listSessions(filter).map((s) => s.id));
  const measured = measuredToolStats(runs, (id) => inScope.has(id));
  return measured === undefined ? {} : { measured };
}

/**
 * The statistics of each agent in scope (no agent is named here). The agents without sessions in scope are left
 * out after a count; when one agent is left, its figures are the overall ones (`overall`, the statistics of the
 * same filter), not computed again.
 */
function agentRows(index: StatsSource, filter: StatsFilter, overall: ToolStats): AgentStatsRow[] {
  const ids = filter.agent === undefined ? agentIds : [filter.agent];
  const present = ids
    .map((agent) => ({ agent, sessions: index.sessionTotals({ ...filter, agent }).total }))
    .filter((a) => a.sessions > 0);
  // One agent holds every session in scope: its statistics are the overall ones.
  const onlyOne = present.length === 1 && present[0]?.sessions === overall.sessions;
  return present.flatMap(({ agent }) => {
    const stats = onlyOne ? overall : index.stats({ ...filter, agent });
    if (stats.sessions === 0) return [];
    const tools = toolRows(stats);
    const errors = stats.errors - stats.expectedErrors;
    return [
      {
        agent,
        sessions: stats.sessions,
        calls: stats.calls,
        errors,
        expectedErrors: stats.expectedErrors,
        errorRate: stats.calls === 0 ? 0 : errors / stats.calls,
        tools,
      },
    ];
  });
}
