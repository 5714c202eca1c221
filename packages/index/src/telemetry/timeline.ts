/**
 * One session's calls and API requests as its telemetry tells them, in time order (an undated one after the dated
 * ones that arrived before it): what the dashboard shows of a
 * session known only from telemetry (no transcript on this machine), and what fills in while it runs.
 */
import type { OtelAttributes } from '@agentdash/core';
import type Database from 'better-sqlite3';
import { TELEMETRY_DATED } from './queries.js';

/** One `api_request`, `api_error`, `tool_result` or `user_prompt` event of a session. */
export interface TelemetryStep {
  readonly kind: 'prompt' | 'request' | 'error' | 'tool';
  readonly timeMs: number;
  readonly promptId: string;
  /** `tool`: the tool's name; `request`/`error`: the model. */
  readonly name: string;
  /** `tool`: the call's `tool_use_id`; `request`/`error`: the request id. */
  readonly id: string;
  /** The client's measured duration (null when the event has none). */
  readonly durationMs: number | null;
  readonly ttftMs: number | null;
  readonly success: boolean | null;
  readonly costUsd: number | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  /** A tool's input (`tool_input`, clipped) or an error's message, when exported. */
  readonly detail: string;
}

const KIND_OF = {
  user_prompt: 'prompt',
  api_request: 'request',
  api_error: 'error',
  tool_result: 'tool',
} as const satisfies Record<string, TelemetryStep['kind']>;

/** Longest detail text kept per step. */
const DETAIL_CHARS = 300;

/**
 * The steps of one session in time order, as SQL both stores run (SQLite here, PostgreSQL on a team server): from
 * `otel_events` where `where` holds, at most `limit` (each an SQL text: its parameters are the caller's), with
 * `received` the column that says when a record arrived. A step sent without a time (stored as 0:
 * `TELEMETRY_DATED`) is placed after the latest dated step received with or before it (the window's peers are the
 * steps of the same export request), then by arrival; one that came before any dated step stays ahead of them.
 * Before, every undated step came first. Dated steps of one time keep their order (by key).
 */
export function telemetryStepsSql(where: string, limit: string, received: string): string {
  return `SELECT * FROM (
       SELECT name, time_ms AS "timeMs", prompt_id AS "promptId", tool_name AS "toolName", model,
         tool_use_id AS "toolUseId", request_id AS "requestId", duration_ms AS "durationMs", ttft_ms AS "ttftMs", success,
         cost_usd AS "costUsd", CAST(input_tokens AS DOUBLE PRECISION) AS "inputTokens",
         CAST(output_tokens AS DOUBLE PRECISION) AS "outputTokens", record, key, ${TELEMETRY_DATED} AS dated,
         ${received} AS received,
         CASE WHEN ${TELEMETRY_DATED} THEN time_ms
           ELSE max(CASE WHEN ${TELEMETRY_DATED} THEN time_ms END) OVER (ORDER BY ${received}) END AS at_ms
       FROM otel_events WHERE ${where} AND name IN ('user_prompt', 'api_request', 'api_error', 'tool_result')) steps
     ORDER BY at_ms NULLS FIRST, dated DESC, CASE WHEN dated THEN NULL ELSE received END, key LIMIT ${limit}`;
}

/** A row of `telemetryStepsSql`, as either store gives it (`success` 0/1 in SQLite; `record` a JSON text there). */
export interface TelemetryStepRow {
  readonly name: keyof typeof KIND_OF;
  readonly timeMs: number;
  readonly promptId: string;
  readonly toolName: string;
  readonly model: string;
  readonly toolUseId: string;
  readonly requestId: string;
  readonly durationMs: number | null;
  readonly ttftMs: number | null;
  readonly success: number | boolean | null;
  readonly costUsd: number | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly record: string | { readonly attributes?: OtelAttributes };
}

function detailOf(record: TelemetryStepRow['record'], name: string): string {
  try {
    const attributes = (typeof record === 'string' ? JSON.parse(record) : record)?.attributes ?? {};
    const value = name === 'api_error' ? attributes.error : attributes.tool_input;
    return typeof value === 'string' ? value.slice(0, DETAIL_CHARS) : '';
  } catch {
    return '';
  }
}

/** The step a row of `telemetryStepsSql` stands for. */
export function telemetryStepOf(r: TelemetryStepRow): TelemetryStep {
  const kind = KIND_OF[r.name];
  return {
    kind,
    timeMs: r.timeMs,
    promptId: r.promptId,
    name: kind === 'tool' ? r.toolName : r.model,
    id: kind === 'tool' ? r.toolUseId : r.requestId,
    durationMs: r.durationMs,
    ttftMs: r.ttftMs,
    success: r.success === null ? null : r.success === 1 || r.success === true,
    costUsd: r.costUsd,
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    detail: kind === 'tool' || kind === 'error' ? detailOf(r.record, r.name) : '',
  };
}

export function createTelemetryTimeline(db: Database.Database) {
  const steps = db.prepare(telemetryStepsSql('session_id = ?', '?', 'received_ms'));
  return (sessionId: string, limit = 5000): TelemetryStep[] =>
    (steps.all(sessionId, limit) as TelemetryStepRow[]).map(telemetryStepOf);
}
