/**
 * What stored telemetry says, per session, and how it joins the transcripts: `session.id` = a transcript's session
 * id, `tool_use_id` = a call's id, `request_id` = a response's request id. Joined when read, so the order in which
 * telemetry and transcripts arrive does not matter.
 */
import { telemetryClientName } from '@agentdash/core';
import type { MeasuredCall, MeasuredRequest, SessionTelemetry } from '@agentdash/core/model';
import type Database from 'better-sqlite3';
import { MODEL_TIME_EVENTS } from './schema.js';

export type { MeasuredCall, MeasuredRequest, SessionTelemetry } from '@agentdash/core/model';

/** How much of the telemetry and of the transcripts meet (for `agentdash otel status` and the tests). */
export interface TelemetryJoins {
  readonly toolResults: number;
  readonly toolResultsWithCall: number;
  /** Distinct request ids of transcript responses. */
  readonly transcriptRequests: number;
  /** Those with the client's `api_request` event (or `api_error`, for a response that is an API error). */
  readonly transcriptRequestsWithApiRequest: number;
  readonly apiRequests: number;
  readonly apiRequestsInTranscripts: number;
}

/**
 * A telemetry session's first and last times: of its records that carry one. A record sent without a time (an
 * exporter that leaves OpenTelemetry's times out) is stored with time 0, which is no time, not 1970: it counts for
 * neither, and a session none of whose records has a time has neither (null). SQL that SQLite and PostgreSQL both
 * run: the team server's telemetry (team/src/pg/telemetry.ts) reads its own with these.
 */
export const TELEMETRY_DATED = 'time_ms > 0';
export const TELEMETRY_FIRST_MS = `min(case when ${TELEMETRY_DATED} then time_ms end)`;
export const TELEMETRY_LAST_MS = `max(case when ${TELEMETRY_DATED} then time_ms end)`;
/**
 * Telemetry sessions (grouped by `session_id`) newest first, by their first time; those without one last, as the
 * sessions list puts a session whose start is unknown (`coalesce(started_ms, 0)`, read/session-page.ts), then by id.
 */
export const TELEMETRY_NEWEST_FIRST = `${TELEMETRY_FIRST_MS} desc nulls last, session_id`;

const SESSION_SUMS = `
  SELECT COUNT(*) AS records, ${TELEMETRY_FIRST_MS} AS firstMs, ${TELEMETRY_LAST_MS} AS lastMs,
    COUNT(DISTINCT CASE WHEN name = 'user_prompt' THEN prompt_id END) AS prompts,
    SUM(name = 'api_request') AS apiRequests,
    SUM(name = 'api_error') AS apiErrors,
    TOTAL(CASE WHEN name IN ${MODEL_TIME_EVENTS} THEN duration_ms END) AS modelMs,
    SUM(name = 'tool_result') AS toolCalls,
    SUM(name = 'tool_result' AND success = 0) AS failedToolCalls,
    TOTAL(CASE WHEN name = 'tool_result' THEN duration_ms END) AS toolMs,
    TOTAL(CASE WHEN name = 'api_request' THEN cost_usd END) AS costUsd,
    SUM(name = 'api_request' AND cost_usd IS NOT NULL) AS costReports,
    TOTAL(CASE WHEN name IN ('api_request', 'api_usage') THEN input_tokens END) AS inputTokens,
    TOTAL(CASE WHEN name IN ('api_request', 'api_usage') THEN output_tokens END) AS outputTokens,
    TOTAL(CASE WHEN name IN ('api_request', 'api_usage') THEN cache_read_tokens END) AS cacheReadTokens,
    TOTAL(CASE WHEN name IN ('api_request', 'api_usage') THEN cache_creation_tokens END) AS cacheCreationTokens
  FROM otel_events WHERE session_id = ?`;

export function createTelemetryQueries(db: Database.Database) {
  const s = {
    sums: db.prepare(SESSION_SUMS),
    waits: db
      .prepare(
        `SELECT TOTAL(duration_ms) FROM otel_spans WHERE session_id = ? AND name = 'claude_code.tool.blocked_on_user'`,
      )
      .pluck(),
    tools: db.prepare(
      `SELECT tool_name AS name, COUNT(*) AS calls, SUM(success = 0) AS failed FROM otel_events
       WHERE session_id = ? AND name = 'tool_result' GROUP BY tool_name ORDER BY calls DESC, name`,
    ),
    hasTranscript: db.prepare('SELECT 1 FROM sessions WHERE session_id = ? LIMIT 1').pluck(),
    service: db
      .prepare(
        `SELECT json_extract(record, '$.resource."service.name"') FROM otel_events WHERE session_id = ?
         AND json_extract(record, '$.resource."service.name"') IS NOT NULL LIMIT 1`,
      )
      .pluck(),
    sessions: db
      .prepare(
        `SELECT session_id FROM otel_events WHERE session_id <> '' GROUP BY session_id
         ORDER BY ${TELEMETRY_NEWEST_FIRST}`,
      )
      .pluck(),
    calls: db.prepare(
      `SELECT e.tool_use_id AS id, e.duration_ms AS durationMs, e.success AS success,
         (SELECT TOTAL(w.duration_ms) FROM otel_spans t JOIN otel_spans w ON w.parent_span_id = t.span_id
            AND w.trace_id = t.trace_id AND w.name = 'claude_code.tool.blocked_on_user'
          WHERE t.tool_use_id = e.tool_use_id AND t.name = 'claude_code.tool') AS permissionWaitMs
       FROM otel_events e WHERE e.session_id = ? AND e.name = 'tool_result' AND e.tool_use_id <> ''`,
    ),
    requests: db.prepare(
      `SELECT request_id AS id, duration_ms AS durationMs, ttft_ms AS ttftMs, cost_usd AS costUsd
       FROM otel_events WHERE session_id = ? AND name IN ${MODEL_TIME_EVENTS} AND request_id <> ''`,
    ),
    joins: db.prepare(
      `SELECT
         (SELECT COUNT(*) FROM otel_events WHERE name = 'tool_result') AS toolResults,
         (SELECT COUNT(*) FROM otel_events e WHERE e.name = 'tool_result'
            AND EXISTS (SELECT 1 FROM calls c WHERE c.tool_use_id = e.tool_use_id)) AS toolResultsWithCall,
         (SELECT COUNT(DISTINCT request_id) FROM records WHERE kind = 'assistant' AND request_id IS NOT NULL)
           AS transcriptRequests,
         (SELECT COUNT(DISTINCT r.request_id) FROM records r WHERE r.kind = 'assistant' AND r.request_id IS NOT NULL
            AND EXISTS (SELECT 1 FROM otel_events e WHERE e.request_id = r.request_id
              AND e.name IN ('api_request', 'api_error')))
           AS transcriptRequestsWithApiRequest,
         (SELECT COUNT(*) FROM otel_events WHERE name = 'api_request') AS apiRequests,
         (SELECT COUNT(*) FROM otel_events e WHERE e.name = 'api_request'
            AND EXISTS (SELECT 1 FROM records r WHERE r.request_id = e.request_id)) AS apiRequestsInTranscripts`,
    ),
  };

  const sessionTelemetry = (sessionId: string): SessionTelemetry | undefined => {
    const { records, costReports, ...sums } = s.sums.get(sessionId) as Omit<
      SessionTelemetry,
      'sessionId' | 'client' | 'costReported' | 'tools' | 'hasTranscript'
    > & { records: number; costReports: number | null };
    if (records === 0) return undefined;
    const tools = s.tools.all(sessionId) as { name: string; calls: number; failed: number | null }[];
    return {
      ...sums,
      sessionId,
      client: telemetryClientName(String(s.service.get(sessionId) ?? '')),
      costReported: (costReports ?? 0) > 0,
      prompts: sums.prompts ?? 0,
      apiRequests: sums.apiRequests ?? 0,
      apiErrors: sums.apiErrors ?? 0,
      toolCalls: sums.toolCalls ?? 0,
      failedToolCalls: sums.failedToolCalls ?? 0,
      permissionWaitMs: s.waits.get(sessionId) as number,
      tools: tools.map((t) => ({ name: t.name, calls: t.calls, failed: t.failed ?? 0 })),
      hasTranscript: s.hasTranscript.get(sessionId) !== undefined,
    };
  };

  return {
    sessionTelemetry,
    /** Every session telemetry names, newest first (`TELEMETRY_NEWEST_FIRST`). */
    telemetrySessionIds: (): string[] => s.sessions.all() as string[],
    /** Sessions known only through telemetry: no transcript of them is in the index. */
    telemetryOnlySessions: (): SessionTelemetry[] =>
      (s.sessions.all() as string[])
        .filter((id) => s.hasTranscript.get(id) === undefined)
        .flatMap((id) => sessionTelemetry(id) ?? []),
    measuredCalls: (sessionId: string): Map<string, MeasuredCall> => {
      const rows = s.calls.all(sessionId) as {
        id: string;
        durationMs: number | null;
        success: number | null;
        permissionWaitMs: number;
      }[];
      return new Map(
        rows
          .filter((r) => r.durationMs !== null)
          .map((r) => [
            r.id,
            {
              durationMs: r.durationMs ?? 0,
              success: r.success === null ? null : r.success === 1,
              permissionWaitMs: r.permissionWaitMs,
            },
          ]),
      );
    },
    measuredRequests: (sessionId: string): Map<string, MeasuredRequest> => {
      const rows = s.requests.all(sessionId) as {
        id: string;
        durationMs: number | null;
        ttftMs: number | null;
        costUsd: number | null;
      }[];
      return new Map(
        rows
          .filter((r) => r.durationMs !== null)
          .map((r) => [r.id, { durationMs: r.durationMs ?? 0, ttftMs: r.ttftMs, costUsd: r.costUsd }]),
      );
    },
    joins: (): TelemetryJoins => s.joins.get() as TelemetryJoins,
  };
}
