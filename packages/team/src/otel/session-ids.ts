/**
 * The sessions a telemetry record names (`session.id`, as core's `telemetrySessionId` reads it): what the team
 * server matches against a session's tier, its forget and its record (pg/telemetry.ts, pg/telemetry-tier.ts).
 */
import { type OtelAttributes, type OtelRecord, telemetrySessionId } from '@agentdash/core';

/** Nested values walked into at most (a raw record is an exporter's JSON, any shape). */
const DEPTH = 8;

/** The string attributes of an OTLP attribute list as sent (`[{ key, value: { stringValue } }]`). */
function stringAttributes(pairs: readonly unknown[]): OtelAttributes {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    if (typeof pair !== 'object' || pair === null) continue;
    const { key, value } = pair as { key?: unknown; value?: { stringValue?: unknown } };
    if (typeof key === 'string' && typeof value?.stringValue === 'string') out[key] = value.stringValue;
  }
  return out;
}

/** Every session id the attribute lists within `raw` name (a histogram's data points: one each). */
function rawSessionIds(raw: unknown, into: Set<string>, depth = 0): void {
  if (typeof raw !== 'object' || raw === null || depth > DEPTH) return;
  if (Array.isArray(raw)) {
    for (const item of raw) rawSessionIds(item, into, depth + 1);
    return;
  }
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'attributes' && Array.isArray(value)) {
      const id = telemetrySessionId(stringAttributes(value));
      if (id !== '') into.add(id);
    } else rawSessionIds(value, into, depth + 1);
  }
}

/**
 * The session ids `record` names: its own attributes' one, or for a record of a kind not modelled (a histogram or
 * summary, stored as sent in `otel_unknown`), each one its raw value names. None: the record names no session.
 */
export function sessionIdsOf(record: OtelRecord): string[] {
  if (record.kind !== 'unknown') {
    const id = telemetrySessionId(record.attributes);
    return id === '' ? [] : [id];
  }
  const ids = new Set<string>();
  rawSessionIds(record.raw, ids);
  return [...ids];
}
