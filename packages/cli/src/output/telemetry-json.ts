/**
 * What `sessions --json` and `stats --json` add from the agents' own telemetry (docs/cli-json.md): present only
 * where telemetry was received (`agentdash serve`'s OTLP receiver).
 */
import type { MeasuredToolStatDto, MeasuredToolStatsDto } from '@agentdash/server';

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

/** Tool runs the client measured: how many, how many failed, its duration percentiles (nearest rank). */
export type MeasuredToolStatJson = MeasuredToolStatDto;

/** The tool runs of the sessions in scope that telemetry measured, per tool name as the client reports it. */
export type MeasuredStatsJson = MeasuredToolStatsDto;
