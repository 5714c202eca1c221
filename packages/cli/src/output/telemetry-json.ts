/**
 * What `sessions --json` and `stats --json` add from Claude Code's own telemetry (docs/cli-json.md): present only
 * where telemetry was received (`agentdash serve`'s OTLP receiver).
 */

/** One session's figures as the client measured them. */
export interface MeasuredSessionJson {
  readonly apiRequests: number;
  /** Sum of the client's `api_request` durations: the measured model time (subagents included). */
  readonly modelMs: number;
  readonly toolCalls: number;
  /** Sum of the client's `tool_result` durations: the measured tool time. */
  readonly toolMs: number;
  /** Sum of the client's own `cost_usd`. */
  readonly costUsd: number;
}

export interface MeasuredToolStatJson {
  readonly calls: number;
  readonly failed: number;
  /** The client's measured run, nearest rank. */
  readonly durationMs: { readonly p50: number | null; readonly p95: number | null; readonly max: number | null };
}

/** The tool runs of the sessions in scope that telemetry measured. */
export interface MeasuredStatsJson extends MeasuredToolStatJson {
  readonly sessions: number;
  /** Per tool name as the client reports it, most called first. */
  readonly byTool: Readonly<Record<string, MeasuredToolStatJson>>;
}
