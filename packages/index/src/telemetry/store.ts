/**
 * Storing decoded telemetry records: one transaction per export request, each record once (a retried export, or the
 * same span sent again, changes nothing).
 */
import { createHash } from 'node:crypto';
import {
  eventFacts,
  type OtelAttributes,
  type OtelRecord,
  spanFacts,
  spanToolResult,
  type TelemetryFacts,
  telemetrySessionId,
} from '@agentdash/core';
import type Database from 'better-sqlite3';

export interface StoreReport {
  /** Records newly stored. */
  readonly stored: number;
  /** Records already there (sent before), left as they were. */
  readonly duplicates: number;
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 32);
}

/** The transcript session a record belongs to ('' when it names none). */
export function sessionIdOf(attributes: OtelAttributes): string {
  return telemetrySessionId(attributes);
}

function boolColumn(value: boolean | null): number | null {
  return value === null ? null : value ? 1 : 0;
}

export function createTelemetryWriter(db: Database.Database, now: () => number) {
  const s = {
    event: db.prepare(
      `INSERT OR IGNORE INTO otel_events (key, session_id, name, time_ms, prompt_id, request_id, tool_use_id, tool_name,
         model, duration_ms, ttft_ms, success, cost_usd, input_tokens, output_tokens, cache_read_tokens,
         cache_creation_tokens, received_ms, record)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    span: db.prepare(
      `INSERT OR IGNORE INTO otel_spans (trace_id, span_id, parent_span_id, session_id, name, start_ms, end_ms,
         duration_ms, request_id, tool_use_id, received_ms, record)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    metric: db.prepare(
      `INSERT OR IGNORE INTO otel_metrics (key, session_id, name, time_ms, value, received_ms, record)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    unknown: db.prepare(
      'INSERT OR IGNORE INTO otel_unknown (key, signal, reason, received_ms, record) VALUES (?, ?, ?, ?, ?)',
    ),
  };

  const insertEvent = (key: string, f: TelemetryFacts, timeMs: number, receivedMs: number, json: string): boolean =>
    s.event.run(
      key,
      f.sessionId,
      f.name,
      timeMs,
      f.promptId,
      f.requestId,
      f.toolUseId,
      f.toolName,
      f.model,
      f.durationMs,
      f.ttftMs,
      boolColumn(f.success),
      f.costUsd,
      f.inputTokens,
      f.outputTokens,
      f.cacheReadTokens,
      f.cacheCreationTokens,
      receivedMs,
      json,
    ).changes > 0;

  const storeOne = (record: OtelRecord, receivedMs: number): boolean => {
    const json = JSON.stringify(record);
    switch (record.kind) {
      case 'event':
        return insertEvent(hashOf(json), eventFacts(record), record.timeMs, receivedMs, json);
      case 'span': {
        const f = spanFacts(record);
        const stored =
          s.span.run(
            record.traceId,
            record.spanId,
            record.parentSpanId,
            f.sessionId,
            record.name,
            record.startMs,
            record.endMs,
            // a span of no known length adds nothing to the sums read from it (permission waits)
            record.durationMs ?? 0,
            f.requestId,
            f.toolUseId,
            receivedMs,
            json,
          ).changes > 0;
        // A span that is the client's only record of a call's run is also that call's `tool_result`.
        const toolResult = spanToolResult(record);
        if (stored && toolResult !== undefined) {
          insertEvent(`span:${record.traceId}:${record.spanId}`, toolResult, record.endMs, receivedMs, json);
        }
        return stored;
      }
      case 'metric':
        return (
          s.metric.run(
            hashOf(json),
            sessionIdOf(record.attributes),
            record.name,
            record.timeMs,
            record.value,
            receivedMs,
            json,
          ).changes > 0
        );
      case 'unknown':
        return s.unknown.run(hashOf(json), record.signal, record.reason, receivedMs, json).changes > 0;
      default:
        return record satisfies never;
    }
  };

  const storeAll = db.transaction((records: readonly OtelRecord[]): StoreReport => {
    const receivedMs = now();
    let stored = 0;
    for (const record of records) if (storeOne(record, receivedMs)) stored += 1;
    return { stored, duplicates: records.length - stored };
  });

  return { store: (records: readonly OtelRecord[]): StoreReport => storeAll(records) };
}
