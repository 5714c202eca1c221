/**
 * Telemetry in the index: an agent's own OpenTelemetry export, stored as received and joined to its transcripts.
 *
 * Its tables are made on first use (telemetry/schema.ts, `IF NOT EXISTS`), so an index that never received
 * telemetry holds none of them, not even empty pages; they are kept by every rebuild of the derived tables.
 */
import type { OtelRecord } from '@agentdash/core';
import type Database from 'better-sqlite3';
import { openDatabase } from '../schema/sqlite-addon.js';
import {
  createMeasuredQueries,
  type MeasuredSession,
  type MeasuredToolRun,
  type MeasuredToolStat,
  type MeasuredToolStats,
} from './measured.js';

export { addMeasured, type MeasuredTimeTotals, measuredToolStats } from './measured.js';

import {
  createTelemetryQueries,
  type MeasuredCall,
  type MeasuredRequest,
  type SessionTelemetry,
  type TelemetryJoins,
} from './queries.js';

export { TELEMETRY_FIRST_MS, TELEMETRY_LAST_MS, TELEMETRY_NEWEST_FIRST } from './queries.js';
export { MODEL_TIME_EVENTS } from './schema.js';
export { type TelemetryStepRow, telemetryStepOf, telemetryStepsSql } from './timeline.js';

import { TELEMETRY_SCHEMA } from './schema.js';
import { createTelemetryWriter, type StoreReport } from './store.js';
import { createTelemetryTimeline, type TelemetryStep } from './timeline.js';

export { TELEMETRY_TABLES } from './schema.js';
export type {
  MeasuredCall,
  MeasuredRequest,
  MeasuredSession,
  MeasuredToolRun,
  MeasuredToolStat,
  MeasuredToolStats,
  SessionTelemetry,
  StoreReport,
  TelemetryJoins,
  TelemetryStep,
};

export interface TelemetryStore {
  /** Store one export request's records in one transaction; a record stored before is left as it is. */
  store(records: readonly OtelRecord[]): StoreReport;
  sessionTelemetry(sessionId: string): SessionTelemetry | undefined;
  telemetrySessionIds(): string[];
  telemetryOnlySessions(): SessionTelemetry[];
  measuredCalls(sessionId: string): Map<string, MeasuredCall>;
  measuredRequests(sessionId: string): Map<string, MeasuredRequest>;
  joins(): TelemetryJoins;
  /** The session's prompts, API requests and tool results in time order (at most `limit`). */
  timeline(sessionId: string, limit?: number): TelemetryStep[];
  /** Per session telemetry names: its measured model and tool time, requests, calls and client cost. */
  measuredBySession(): Map<string, MeasuredSession>;
  /** Every measured tool run (analytics over many sessions). */
  measuredToolRuns(): MeasuredToolRun[];
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
    timeline: createTelemetryTimeline(db),
    ...createMeasuredQueries(db),
    counts: () => counts.get() as ReturnType<TelemetryStore['counts']>,
  };
}

export function createTelemetryStore(db: Database.Database, now: () => number): TelemetryStore {
  let ready: TelemetryStore | undefined;
  const hasTables = (): boolean =>
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'otel_events'").get() !== undefined;
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
    timeline: (sessionId, limit) => get().timeline(sessionId, limit),
    // asked of every index by usage and statistics: one that never received telemetry is not given its tables
    measuredBySession: () => (ready || hasTables() ? get().measuredBySession() : new Map()),
    measuredToolRuns: () => (ready || hasTables() ? get().measuredToolRuns() : []),
    counts: () => get().counts(),
  };
}

/** A writer of telemetry into the index file at `dbPath` on a connection of its own (the OTLP receiver's thread). */
export interface TelemetryWriterDb {
  store(records: readonly OtelRecord[]): StoreReport;
  close(): void;
}

/**
 * Open the index file for storing telemetry only: the OTLP receiver's worker thread stores there while the server's
 * own connection reads and indexes (WAL: readers do not wait; writers wait up to `busyTimeoutMs` for each other).
 */
export function openTelemetryWriter(dbPath: string, busyTimeoutMs = 5000): TelemetryWriterDb {
  const db = openDatabase(dbPath, { timeout: busyTimeoutMs });
  db.pragma('synchronous = NORMAL');
  db.exec(TELEMETRY_SCHEMA);
  const writer = createTelemetryWriter(db, Date.now);
  return { store: writer.store, close: () => db.close() };
}
