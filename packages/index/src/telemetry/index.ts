/**
 * Telemetry in the index: an agent's own OpenTelemetry export, stored as received and joined to its transcripts.
 *
 * Its tables are made on first use (telemetry/schema.ts, `IF NOT EXISTS`), so an index that never received
 * telemetry holds none of them, not even empty pages; they are kept by every rebuild of the derived tables.
 */
import type { OtelRecord } from '@agentdash/core';
import type Database from 'better-sqlite3';
import {
  createTelemetryQueries,
  type MeasuredCall,
  type MeasuredRequest,
  type SessionTelemetry,
  type TelemetryJoins,
} from './queries.js';
import { TELEMETRY_SCHEMA } from './schema.js';
import { createTelemetryWriter, type StoreReport } from './store.js';

export { TELEMETRY_TABLES } from './schema.js';
export type { MeasuredCall, MeasuredRequest, SessionTelemetry, StoreReport, TelemetryJoins };

export interface TelemetryStore {
  /** Store one export request's records in one transaction; a record stored before is left as it is. */
  store(records: readonly OtelRecord[]): StoreReport;
  sessionTelemetry(sessionId: string): SessionTelemetry | undefined;
  telemetrySessionIds(): string[];
  telemetryOnlySessions(): SessionTelemetry[];
  measuredCalls(sessionId: string): Map<string, MeasuredCall>;
  measuredRequests(sessionId: string): Map<string, MeasuredRequest>;
  joins(): TelemetryJoins;
  /** Rows per telemetry table (status, tests). */
  counts(): { readonly events: number; readonly spans: number; readonly metrics: number; readonly unknown: number };
}

function createReadyStore(db: Database.Database, now: () => number): TelemetryStore {
  db.exec(TELEMETRY_SCHEMA);
  const writer = createTelemetryWriter(db, now);
  const counts = db.prepare(
    `SELECT (SELECT COUNT(*) FROM otel_events) AS events, (SELECT COUNT(*) FROM otel_spans) AS spans,
       (SELECT COUNT(*) FROM otel_metrics) AS metrics, (SELECT COUNT(*) FROM otel_unknown) AS unknown`,
  );
  return {
    ...createTelemetryQueries(db),
    store: writer.store,
    counts: () => counts.get() as ReturnType<TelemetryStore['counts']>,
  };
}

export function createTelemetryStore(db: Database.Database, now: () => number): TelemetryStore {
  let ready: TelemetryStore | undefined;
  const get = (): TelemetryStore => {
    ready ??= createReadyStore(db, now);
    return ready;
  };
  return {
    store: (records) => get().store(records),
    sessionTelemetry: (sessionId) => get().sessionTelemetry(sessionId),
    telemetrySessionIds: () => get().telemetrySessionIds(),
    telemetryOnlySessions: () => get().telemetryOnlySessions(),
    measuredCalls: (sessionId) => get().measuredCalls(sessionId),
    measuredRequests: (sessionId) => get().measuredRequests(sessionId),
    joins: () => get().joins(),
    counts: () => get().counts(),
  };
}
