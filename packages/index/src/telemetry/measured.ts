/**
 * Measured time over many sessions at once (analytics, usage, the CLI's lists): one grouped query, not one per
 * session, joined to the sessions in scope by the caller.
 */
import type Database from 'better-sqlite3';
import { percentile } from '../read/percentile.js';
import type { DurationStats } from '../types.js';
import { MEASURED_RUN, MODEL_TIME_EVENTS } from './schema.js';

/** What the client measured of one session, summed. */
export interface MeasuredSession {
  readonly apiRequests: number;
  /** Sum of `api_request` and `api_error` durations (`MODEL_TIME_EVENTS`). */
  readonly modelMs: number;
  readonly toolCalls: number;
  /** Sum of `tool_result` durations. */
  readonly toolMs: number;
  /** Sum of the client's `cost_usd`. */
  readonly costUsd: number;
}

/** One tool call's measured run (`tool_result`). */
export interface MeasuredToolRun {
  readonly sessionId: string;
  readonly tool: string;
  readonly durationMs: number;
  readonly success: boolean | null;
}

export function createMeasuredQueries(db: Database.Database) {
  const bySession = db.prepare(
    `SELECT session_id AS sessionId, SUM(name = 'api_request') AS apiRequests,
       TOTAL(CASE WHEN name IN ${MODEL_TIME_EVENTS} THEN duration_ms END) AS modelMs,
       SUM(name = 'tool_result') AS toolCalls,
       TOTAL(CASE WHEN name = 'tool_result' THEN duration_ms END) AS toolMs,
       TOTAL(CASE WHEN name = 'api_request' THEN cost_usd END) AS costUsd
     FROM otel_events WHERE session_id <> '' AND name IN ('api_request', 'api_error', 'tool_result')
     GROUP BY session_id`,
  );
  const runs = db.prepare(
    `SELECT session_id AS sessionId, tool_name AS tool, duration_ms AS durationMs, success FROM otel_events
     WHERE ${MEASURED_RUN}`,
  );
  return {
    /** Per session telemetry names: the sums of its measured requests and tool runs. */
    measuredBySession: (): Map<string, MeasuredSession> =>
      new Map(
        (bySession.all() as (MeasuredSession & { sessionId: string })[]).map(({ sessionId, ...m }) => [sessionId, m]),
      ),
    /** Every measured tool run (`tool_result` with a duration). */
    measuredToolRuns: (): MeasuredToolRun[] =>
      (runs.all() as { sessionId: string; tool: string; durationMs: number; success: number | null }[]).map((r) => ({
        ...r,
        success: r.success === null ? null : r.success === 1,
      })),
  };
}

/** Tool runs as the client measured them: how many, how many failed, duration percentiles. */
export interface MeasuredToolStat {
  readonly calls: number;
  readonly failed: number;
  readonly durationMs: DurationStats;
}

export interface MeasuredToolStats extends MeasuredToolStat {
  /** Sessions whose runs these are. */
  readonly sessions: number;
  /** Per tool name as the client reports it, most called first. */
  readonly byTool: Readonly<Record<string, MeasuredToolStat>>;
}

function statOf(runs: readonly MeasuredToolRun[]): MeasuredToolStat {
  const sorted = runs.map((r) => r.durationMs).sort((a, b) => a - b);
  return {
    calls: runs.length,
    failed: runs.filter((r) => r.success === false).length,
    durationMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? null },
  };
}

/**
 * The measured tool runs of the sessions `inScope` keeps (all when undefined), as the per-tool statistics give the
 * inferred ones (the same percentile rule); undefined when none is measured.
 */
export function measuredToolStats(
  runs: readonly MeasuredToolRun[],
  inScope?: (sessionId: string) => boolean,
): MeasuredToolStats | undefined {
  const kept = inScope === undefined ? runs : runs.filter((r) => inScope(r.sessionId));
  if (kept.length === 0) return undefined;
  const byTool = new Map<string, MeasuredToolRun[]>();
  for (const r of kept) byTool.set(r.tool, [...(byTool.get(r.tool) ?? []), r]);
  return {
    ...statOf(kept),
    sessions: new Set(kept.map((r) => r.sessionId)).size,
    byTool: Object.fromEntries(
      [...byTool].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0])).map(([t, r]) => [t, statOf(r)]),
    ),
  };
}

/** Measured model and tool time over several sessions, beside their inferred (main-thread partition) figures. */
export interface MeasuredTimeTotals {
  readonly sessions: number;
  readonly apiRequests: number;
  readonly toolCalls: number;
  readonly modelMs: number;
  readonly toolMs: number;
  readonly inferredModelMs: number;
  readonly inferredToolMs: number;
}

/** `into` plus one session's measured sums, and its inferred model and tool time beside them. */
export function addMeasured(
  into: MeasuredTimeTotals | undefined,
  m: MeasuredSession,
  inferred: { readonly modelMs: number; readonly toolMs: number },
): MeasuredTimeTotals {
  return {
    sessions: (into?.sessions ?? 0) + 1,
    apiRequests: (into?.apiRequests ?? 0) + m.apiRequests,
    toolCalls: (into?.toolCalls ?? 0) + m.toolCalls,
    modelMs: (into?.modelMs ?? 0) + m.modelMs,
    toolMs: (into?.toolMs ?? 0) + m.toolMs,
    inferredModelMs: (into?.inferredModelMs ?? 0) + inferred.modelMs,
    inferredToolMs: (into?.inferredToolMs ?? 0) + inferred.toolMs,
  };
}
