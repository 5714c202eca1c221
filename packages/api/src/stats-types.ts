/**
 * The statistics answers (`GET /api/stats`, `GET /api/calls`): tool calls and their errors over the sessions in
 * scope. In every row and in the totals, `errors` counts every error, expected ones included, `expectedErrors` how
 * many of them were expected (real errors: `realErrors` of core/present), and `errorRate` is errors over calls: the
 * rows of a grouping add up to the totals. Browser-safe: types only.
 */
import type { AgentId } from '@agentdash/core/model';
import type { MeasuredToolStatsDto } from './telemetry-types.js';

export interface ToolStatRow {
  /** Canonical name (`Agent`). */
  readonly tool: string;
  /** The names as written in the transcripts (`Agent`, `Task`), shown beside the canonical one. */
  readonly names?: readonly string[];
  readonly calls: number;
  readonly errors: number;
  readonly expectedErrors: number;
  readonly errorRate: number;
  readonly p50: number | null;
  readonly p95: number | null;
  readonly max: number | null;
  readonly categories: Readonly<Record<string, number>>;
}

export interface DayRow {
  /**
   * The bucket: a 5-minute or hour bucket's start, `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:00` (UTC); a day, or the
   * Monday of a week, `YYYY-MM-DD` in the asked time zone (`tz`, else the server's); `unknown` for calls without time.
   */
  readonly day: string;
  readonly calls: number;
  readonly errors: number;
  readonly expectedErrors: number;
}

export interface ProjectRow {
  readonly project: string;
  readonly sessions: number;
  readonly calls: number;
  readonly errors: number;
  readonly expectedErrors: number;
}

export interface DurationBucket {
  readonly label: string;
  readonly maxMs: number | null;
  readonly count: number;
}

export interface StatsResponse {
  /** Bucket size of `days`: 5-minute buckets, hours or days, whichever suits the time span. */
  readonly granularity: 'minute' | 'hour' | 'day' | 'week';
  readonly tools: readonly ToolStatRow[];
  readonly days: readonly DayRow[];
  readonly projects: readonly ProjectRow[];
  readonly durations: readonly DurationBucket[];
  /** The same buckets per tool (canonical name). */
  readonly durationsByTool: Readonly<Record<string, readonly DurationBucket[]>>;
  readonly categories: readonly { readonly category: string; readonly severity: string; readonly count: number }[];
  readonly totals: {
    readonly calls: number;
    readonly errors: number;
    readonly expectedErrors: number;
    readonly sessions: number;
  };
  /** The same statistics per agent (agents with sessions in scope only): calls, errors and each tool's rates. */
  readonly agents: readonly AgentStatsRow[];
  /** The tool runs Claude Code's telemetry measured, of the sessions in scope (absent: none). */
  readonly measured?: MeasuredToolStatsDto;
}

export interface AgentStatsRow {
  readonly agent: AgentId;
  readonly sessions: number;
  readonly calls: number;
  readonly errors: number;
  readonly expectedErrors: number;
  /** errors / calls, as each tool's. */
  readonly errorRate: number;
  readonly tools: readonly ToolStatRow[];
}

export interface CallRowDto {
  readonly sessionId: string;
  readonly callId: string;
  readonly tool: string;
  readonly timestamp: string | null;
  readonly status: string;
  readonly category: string | null;
  readonly severity: string | null;
  readonly durationMs: number | null;
  readonly summary: string;
  readonly projectPath: string | null;
  readonly sessionTitle: string | null;
  /** The subagent that made the call (its agent id); null on the main thread. */
  readonly agentId: string | null;
}

export interface CallsResponse {
  readonly calls: readonly CallRowDto[];
}
