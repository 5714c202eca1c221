import { type AgentId, agentIds, periodKeyer, type UsagePeriod } from '@agentdash/core';
import { type AnalyticsBucket, type MeasuredToolStats, measuredToolStats, type ToolStats } from '@agentdash/index';
import type { AgentIndex } from './agent-index.js';
import type { AgentStatsRow, DayRow, DurationBucket, StatsResponse, ToolStatRow } from './api-types.js';

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
  /** The buckets the calls are counted in (in SQL): UTC-aligned, of this length. */
  readonly bucketMs: number;
  /** A bucket's label from the ISO time of its start (UTC), for the grains shown as instants. */
  readonly label: (iso: string) => string;
  /** For days and weeks: the period the quarter-hour buckets are grouped into, in the asked time zone. */
  readonly period?: UsagePeriod;
}

const DAY_MS = 86_400_000;
/**
 * Days and weeks are the asked time zone's (the browser's): counted in UTC quarter-hours, then grouped by the zone's
 * calendar (core's `periodKeyer`; every zone's offset in use is a whole number of quarter-hours, so none straddles a
 * local midnight). A quarter-hour with calls is one row, and the rows come in time order: each day or week is
 * found with a few time-zone formats (`periodKeyer` keeps the period it met last).
 */
const QUARTER_HOUR_MS = 900_000;

/**
 * Time buckets: 5 minutes for calls spanning up to 6 hours, hours up to 4 days, days up to a year, else weeks (from
 * Monday): a history the archive keeps for years stays a time axis of at most a few hundred bars. 5-minute and hour
 * buckets are instants (the browser shows their start in its zone); days and weeks are the zone's calendar.
 */
const GRAINS: readonly [Grain, ...Grain[]] = [
  { granularity: 'minute', maxSpanMs: 6 * 3_600_000, bucketMs: 5 * 60_000, label: (iso) => iso.slice(0, 16) },
  { granularity: 'hour', maxSpanMs: 4 * DAY_MS, bucketMs: 3_600_000, label: (iso) => `${iso.slice(0, 13)}:00` },
  { granularity: 'day', maxSpanMs: 366 * DAY_MS, bucketMs: QUARTER_HOUR_MS, label: (iso) => iso, period: 'day' },
  {
    granularity: 'week',
    maxSpanMs: Number.POSITIVE_INFINITY,
    bucketMs: QUARTER_HOUR_MS,
    label: (iso) => iso,
    period: 'week',
  },
];

const grainOfSpan = (spanMs: number): Grain => GRAINS.find((g) => spanMs <= g.maxSpanMs) ?? GRAINS[0];

/**
 * The time chart's rows from the counted buckets (in time order, the calls without a time last): one per bucket, or
 * per day or week of `timeZone` (`Grain.period`).
 */
function timeRows(buckets: readonly AnalyticsBucket[], grain: Grain, timeZone: string | undefined): DayRow[] {
  const keyOf =
    grain.period === undefined
      ? (ms: number) => grain.label(new Date(ms).toISOString())
      : periodKeyer(grain.period, timeZone);
  const rows = new Map<string, { day: string; calls: number; errors: number; expectedErrors: number }>();
  for (const b of buckets) {
    const day = b.startMs === null ? 'unknown' : keyOf(b.startMs);
    const row = rows.get(day) ?? { day, calls: 0, errors: 0, expectedErrors: 0 };
    row.calls += b.calls;
    row.errors += b.errors;
    row.expectedErrors += b.expectedErrors;
    rows.set(day, row);
  }
  return [...rows.values()];
}

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
  /** Days and weeks in this IANA time zone (the browser's), else the server's. */
  readonly tz?: string;
}

/**
 * GET /api/stats: per-tool statistics with percentiles from `stats`, and the charts' groupings (time buckets,
 * projects, durations, error categories) from `analytics`, which groups in SQL. Each grouping's rows add up to
 * `totals`: every row's `errors` counts every error, expected ones included, and `expectedErrors` those of them
 * expected, as the index counts them (its `ERROR_COUNTS`); a display shows real errors (core's `realErrors`).
 */
export function statsResponse(index: StatsSource, { tz, ...filter }: StatsFilter): StatsResponse {
  const toolStats = index.stats(filter);
  const tools = toolRows(toolStats);
  const analytics = index.analytics({
    ...filter,
    bucketMs: (spanMs) => grainOfSpan(spanMs).bucketMs,
    durationBoundsMs: DURATION_BOUNDS_MS,
  });
  const { firstMs, lastMs } = analytics;
  const grain = grainOfSpan(firstMs !== null && lastMs !== null ? lastMs - firstMs : 0);
  return {
    granularity: grain.granularity,
    tools,
    days: timeRows(analytics.buckets, grain, tz),
    projects: analytics.projects.map((p) => ({
      project: p.project,
      sessions: p.sessions,
      calls: p.calls,
      errors: p.errors,
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
  // One agent holds every session in scope (the one named, or the only one with sessions when their count is the
  // scope's): its statistics are the overall ones. (Counted alike: `stats` counts only the sessions the list shows.)
  const onlyOne =
    present.length === 1 && (filter.agent !== undefined || present[0]?.sessions === index.sessionTotals(filter).total);
  return present.flatMap(({ agent }) => {
    const stats = onlyOne ? overall : index.stats({ ...filter, agent });
    if (stats.sessions === 0) return [];
    return [
      {
        agent,
        sessions: stats.sessions,
        calls: stats.calls,
        errors: stats.errors,
        expectedErrors: stats.expectedErrors,
        errorRate: stats.calls === 0 ? 0 : stats.errors / stats.calls,
        tools: toolRows(stats),
      },
    ];
  });
}
