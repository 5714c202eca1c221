/** What `analytics` takes and gives: the filter, and the calls counted by time, project, tool and error category. */
import type { AgentKind } from './agents.js';
import type { TimeInput } from './time-input.js';

/** Which calls `analytics` counts, and how it groups them. */
export interface AnalyticsFilter {
  /** Only calls of this agent's sessions. */
  readonly agent?: AgentKind;
  /** Only calls in files under these paths (of sessions with a file under them). */
  readonly paths?: readonly string[];
  /** Sessions by project path or project folder name: exact, or a substring of either. */
  readonly project?: string;
  /** Tool name as written, or canonical name. */
  readonly tool?: string;
  readonly sessionId?: string;
  /** Calls made at or after this time (calls without a timestamp are then left out). */
  readonly since?: TimeInput;
  /** Calls made at or before this time (calls without a timestamp are then left out). */
  readonly until?: TimeInput;
  /**
   * Width of the time buckets in ms (buckets start at multiples of it since the epoch plus `bucketOffsetMs`, so a
   * day is a UTC day), or a function that picks it from the time span of the calls (last minus first timestamp, 0
   * when there are none).
   */
  readonly bucketMs: number | ((spanMs: number) => number);
  /**
   * Where bucket starts are counted from, in ms after the epoch (default 0). Weeks that start on a Monday:
   * 4 days (1970-01-05 was a Monday); a multiple of the width leaves the buckets as they are.
   */
  readonly bucketOffsetMs?: number;
  /**
   * Ascending upper bounds (exclusive) of the duration histogram's bins; one more bin holds the rest.
   * Default `[100, 1000, 5000, 30000, 120000]`.
   */
  readonly durationBoundsMs?: readonly number[];
}

export interface CallCounts {
  readonly calls: number;
  /** Calls whose result is an error, expected ones included. */
  readonly errors: number;
  /** Errors classified as expected. */
  readonly expectedErrors: number;
}

export interface AnalyticsBucket extends CallCounts {
  /** Bucket start (ms since the epoch); null for the calls without a timestamp. */
  readonly startMs: number | null;
}

export interface AnalyticsProject extends CallCounts {
  /** The session's project path, else its project folder. */
  readonly project: string;
  /** Sessions with calls counted here. */
  readonly sessions: number;
}

export interface AnalyticsTool extends CallCounts {
  /** Canonical tool name (Task → Agent, …). */
  readonly tool: string;
  /** Calls with a duration per histogram bin (see `CallAnalytics.durationBoundsMs`). */
  readonly durations: readonly number[];
}

export interface AnalyticsCategory {
  /** Error category; `other` when unclassified. */
  readonly category: string;
  /** Error severity; `error` when unclassified. */
  readonly severity: string;
  readonly count: number;
}

/**
 * Aggregates over the calls an `AnalyticsFilter` selects, each call (unique tool_use id) counted once. Rankings put
 * the most calls (or errors) first; ties go to the group with the most recent call.
 */
export interface CallAnalytics extends CallCounts {
  /** Earliest and latest call timestamp (ms); null when no call has one. */
  readonly firstMs: number | null;
  readonly lastMs: number | null;
  /** The bucket width used. */
  readonly bucketMs: number;
  /** Time buckets with calls, oldest first; the bucket of calls without a timestamp (if any) last. */
  readonly buckets: readonly AnalyticsBucket[];
  readonly projects: readonly AnalyticsProject[];
  readonly tools: readonly AnalyticsTool[];
  /** The histogram's bin bounds; bin i holds durations below bound i (and not below bound i − 1). */
  readonly durationBoundsMs: readonly number[];
  /** Calls with a duration per bin, all tools. */
  readonly durations: readonly number[];
  /** Errors per category and severity. */
  readonly categories: readonly AnalyticsCategory[];
}
