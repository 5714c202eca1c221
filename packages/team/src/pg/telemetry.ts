/**
 * Telemetry sent by devices straight to the team server, in PostgreSQL: each record cut to the device's tier, or its
 * pushed session's when that is lower (`recordAtTier`, `telemetry-tier.ts`) before it is stored, attributed to the device's person, and stored once (an exporter retries: a
 * span is its trace and span id, any other record the hash of what is stored of it). Read back per session as the
 * laptop's index reads its own (`SessionTelemetry`, the measured calls and requests), so the team's
 * `/api/telemetry/sessions/:id` gives the laptop's figures.
 */
import {
  eventFacts,
  type OtelRecord,
  spanFacts,
  spanToolResult,
  type TelemetryFacts,
  telemetryClientName,
  telemetrySessionId,
} from '@agentdash/core';
import {
  type MeasuredCall,
  type MeasuredRequest,
  MODEL_TIME_EVENTS,
  type SessionTelemetry,
  TELEMETRY_FIRST_MS,
  TELEMETRY_LAST_MS,
  TELEMETRY_NEWEST_FIRST,
  type TelemetryStep,
  type TelemetryStepRow,
  telemetryStepOf,
  telemetryStepsSql,
} from '@agentdash/index';
import { lowerTier, type ShareTier } from '../contract.js';
import { sessionIdsOf } from '../otel/session-ids.js';
import { recordAtTier } from '../otel/share.js';
import type { Sql, TxSql } from './db.js';
import { forgottenSessionIds } from './forgotten.js';
import { sessionHasher } from './forgotten-key.js';
import { noNul } from './no-nul.js';
import { jsonOf, keyOf, pushedTiers } from './telemetry-tier.js';

export interface TelemetrySender {
  readonly personId: number;
  readonly deviceId: number;
  readonly tier: ShareTier;
}

export interface TelemetryStored {
  readonly stored: number;
  readonly duplicates: number;
  /** Records of sessions the person forgot (`push --forget`, forgotten.ts): not stored. */
  readonly dropped: number;
  /** The sessions (telemetry `session.id`s) of the records stored anew: what a live dashboard is told changed. */
  readonly sessionIds: readonly string[];
}

/** A whole count for a bigint column; null for none, or one no count can be (kept in the record as sent). */
const int = (n: number | null) => (n === null || !Number.isSafeInteger(Math.round(n)) ? null : Math.round(n));

/** An `otel_events` row of a record's neutral facts (core's mapping: the laptop's index stores the same). */
const eventRow = (f: TelemetryFacts) => ({
  session_id: noNul(f.sessionId),
  name: noNul(f.name),
  prompt_id: noNul(f.promptId),
  request_id: noNul(f.requestId),
  tool_use_id: noNul(f.toolUseId),
  tool_name: noNul(f.toolName),
  model: noNul(f.model),
  duration_ms: f.durationMs,
  ttft_ms: f.ttftMs,
  success: f.success,
  cost_usd: f.costUsd,
  input_tokens: int(f.inputTokens),
  output_tokens: int(f.outputTokens),
  cache_read_tokens: int(f.cacheReadTokens),
  cache_creation_tokens: int(f.cacheCreationTokens),
});

/**
 * Stores one export request's records in one transaction; each record once per person, at the lower of the device's
 * tier and its pushed session's (`telemetry-tier.ts`); none of a session the person forgot (`dropped`).
 */
export async function storeTelemetry(
  sql: Sql,
  records: readonly OtelRecord[],
  who: TelemetrySender,
): Promise<TelemetryStored> {
  // a record of a kind not modelled (a histogram's data points) may name several: it goes with any of them
  const named = new Map(records.map((r) => [r, sessionIdsOf(r)]));
  const idsOf = (r: OtelRecord) => named.get(r) ?? [];
  const hash = await sessionHasher(sql);
  return await sql.begin(async (tx) => {
    const ids = records.flatMap(idsOf);
    // sent together, in this order (the record read once the locks are held): one round trip
    const [pushed, forgotten] = await Promise.all([
      pushedTiers(tx, who.personId, ids),
      forgottenSessionIds(tx, who.personId, ids, hash),
    ]);
    const kept = forgotten.size === 0 ? records : records.filter((r) => !idsOf(r).some((id) => forgotten.has(id)));
    const tierOf = (r: OtelRecord) =>
      idsOf(r).reduce<ShareTier>((t, id) => lowerTier(t, pushed.get(id) ?? t), who.tier);
    return { ...(await insertTelemetry(tx, kept, who, tierOf)), dropped: records.length - kept.length };
  });
}

async function insertTelemetry(
  tx: TxSql,
  records: readonly OtelRecord[],
  who: TelemetrySender,
  tierOf: (record: OtelRecord) => ShareTier,
): Promise<Omit<TelemetryStored, 'dropped'>> {
  const rows = { otel_events: [], otel_spans: [], otel_metrics: [], otel_unknown: [] } as Record<
    string,
    Record<string, unknown>[]
  >;
  /** Events made of a span (not records sent): stored beside it, not counted as stored records. */
  const derived: Record<string, unknown>[] = [];
  for (const source of records) {
    const tier = tierOf(source);
    const base = { person_id: who.personId, device_id: who.deviceId, tier };
    const r = recordAtTier(source, tier);
    const { json, value } = jsonOf(r);
    switch (r.kind) {
      case 'event':
        rows.otel_events?.push({
          ...base,
          key: keyOf(json),
          // the tool's name as the uncut record gives it (an MCP tool's is read from its parameters, which only the
          // full tier keeps): a tool's name is summary-tier data, as a pushed transcript's calls send it
          ...eventRow({ ...eventFacts(r), toolName: eventFacts(source.kind === 'event' ? source : r).toolName }),
          time_ms: r.timeMs,
          record: value,
        });
        break;
      case 'span': {
        const f = spanFacts(r);
        rows.otel_spans?.push({
          ...base,
          trace_id: noNul(r.traceId),
          span_id: noNul(r.spanId),
          parent_span_id: noNul(r.parentSpanId),
          session_id: noNul(f.sessionId),
          name: noNul(r.name),
          start_ms: r.startMs,
          end_ms: r.endMs,
          // a span of no known length adds nothing to the sums read from it (permission waits)
          duration_ms: r.durationMs ?? 0,
          request_id: noNul(f.requestId),
          tool_use_id: noNul(f.toolUseId),
          record: value,
        });
        // a span that is the client's only record of a call's run (Gemini CLI's `tool_call`) is also its
        // `tool_result`, keyed by the span so a resent span is stored once, as the laptop's index stores it
        const toolResult = spanToolResult(r);
        if (toolResult !== undefined) {
          const key = noNul(`span:${r.traceId}:${r.spanId}`);
          derived.push({ ...base, key, ...eventRow(toolResult), time_ms: r.endMs, record: value });
        }
        break;
      }
      case 'metric':
        rows.otel_metrics?.push({
          ...base,
          key: keyOf(json),
          session_id: noNul(telemetrySessionId(r.attributes)),
          name: noNul(r.name),
          time_ms: r.timeMs,
          value: r.value,
          record: value,
        });
        break;
      case 'unknown':
        rows.otel_unknown?.push({
          ...base,
          key: keyOf(json),
          signal: r.signal,
          reason: noNul(r.reason),
          // the sessions its raw value names, as sent (a forget of one deletes it)
          session_ids: sessionIdsOf(source).map(noNul),
          record: value,
        });
        break;
      default:
        r satisfies never;
    }
  }
  let stored = 0;
  const sessionIds = new Set<string>();
  const lists: [string, Record<string, unknown>[], boolean][] = [
    ...Object.entries(rows).map(([table, list]): [string, Record<string, unknown>[], boolean] => [table, list, true]),
    ['otel_events', derived, false],
  ];
  for (const [table, list, counted] of lists) {
    const named = table !== 'otel_unknown';
    for (let i = 0; i < list.length; i += 500) {
      const batch = list.slice(i, i + 500);
      const done = await tx<{ session_id?: string }[]>`insert into ${tx(table)} ${tx(batch)}
        on conflict do nothing returning ${named ? tx`session_id` : tx`1`}`;
      if (counted) stored += done.length;
      for (const row of done) if (row.session_id) sessionIds.add(row.session_id);
    }
  }
  return { stored, duplicates: records.length - stored, sessionIds: [...sessionIds] };
}

/** A telemetry session: whose, and its id (the transcript's `sessionId`). */
export interface TelemetryKey {
  readonly personId: number;
  readonly sessionId: string;
}

/** A sum as SQLite's `total()` makes it (Kahan–Babuška–Neumaier), so sums of fractions agree to the last bit. */
export function total(values: readonly number[] | null | undefined): number {
  let sum = 0;
  let error = 0;
  for (const v of values ?? []) {
    const t = sum + v;
    error += Math.abs(sum) > Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
  }
  return sum + error;
}

/** The session's telemetry as the laptop's `sessionTelemetry` sums it; undefined when there is none. */
export async function teamSessionTelemetry(sql: Sql, key: TelemetryKey): Promise<SessionTelemetry | undefined> {
  const { personId: p, sessionId: id } = key;
  const [row] = await sql<Record<string, number | boolean | null>[]>`
    select count(*)::int as records,
      ${sql.unsafe(TELEMETRY_FIRST_MS)} as "firstMs", ${sql.unsafe(TELEMETRY_LAST_MS)} as "lastMs",
      count(distinct prompt_id) filter (where name = 'user_prompt')::int as prompts,
      count(*) filter (where name = 'api_request')::int as "apiRequests",
      count(*) filter (where name = 'api_error')::int as "apiErrors",
      count(*) filter (where name = 'api_request' and cost_usd is not null) > 0 as "costReported",
      count(*) filter (where name = 'tool_result')::int as "toolCalls",
      count(*) filter (where name = 'tool_result' and success = false)::int as "failedToolCalls",
      coalesce(sum(input_tokens) filter (where name in ('api_request', 'api_usage')), 0)::float8 as "inputTokens",
      coalesce(sum(output_tokens) filter (where name in ('api_request', 'api_usage')), 0)::float8 as "outputTokens",
      coalesce(sum(cache_read_tokens) filter (where name in ('api_request', 'api_usage')), 0)::float8
        as "cacheReadTokens",
      coalesce(sum(cache_creation_tokens) filter (where name in ('api_request', 'api_usage')), 0)::float8
        as "cacheCreationTokens"
    from otel_events where person_id = ${p} and session_id = ${id}`;
  if (!row || row.records === 0) return undefined;
  const { records: _records, ...sums } = row;
  // fractional figures summed as the laptop's SQLite sums them (total(): compensated), to the same last bit
  const [floats] = await sql<{ model: number[] | null; tool: number[] | null; cost: number[] | null }[]>`
    select array_agg(duration_ms order by key)
        filter (where name in ${sql.unsafe(MODEL_TIME_EVENTS)} and duration_ms is not null) as model,
      array_agg(duration_ms order by key) filter (where name = 'tool_result' and duration_ms is not null) as tool,
      array_agg(cost_usd order by key) filter (where name = 'api_request' and cost_usd is not null) as cost
    from otel_events where person_id = ${p} and session_id = ${id}`;
  const [waits] = await sql<{ ms: number[] | null }[]>`
    select array_agg(duration_ms order by trace_id, span_id) as ms from otel_spans
    where person_id = ${p} and session_id = ${id} and name = 'claude_code.tool.blocked_on_user'`;
  const tools = await sql<{ name: string; calls: number; failed: number }[]>`
    select tool_name as name, count(*)::int as calls, count(*) filter (where success = false)::int as failed
    from otel_events where person_id = ${p} and session_id = ${id} and name = 'tool_result'
    group by tool_name order by calls desc, name`;
  const [transcript] = await sql`select 1 from sessions where person_id = ${p} and session_id = ${id} limit 1`;
  const [service] = await sql<{ name: string | null }[]>`
    select record->'resource'->>'service.name' as name from otel_events
    where person_id = ${p} and session_id = ${id} and record->'resource'->>'service.name' is not null limit 1`;
  return {
    ...(sums as unknown as Omit<
      SessionTelemetry,
      'sessionId' | 'client' | 'tools' | 'hasTranscript' | 'permissionWaitMs' | 'modelMs' | 'toolMs' | 'costUsd'
    >),
    sessionId: id,
    client: telemetryClientName(service?.name ?? ''),
    modelMs: total(floats?.model),
    toolMs: total(floats?.tool),
    costUsd: total(floats?.cost),
    permissionWaitMs: total(waits?.ms),
    tools: tools.map((t) => ({ name: t.name, calls: t.calls, failed: t.failed })),
    hasTranscript: transcript !== undefined,
  };
}

/** Per call id, the client's measured run and permission wait (the laptop's `measuredCalls`). */
export async function teamMeasuredCalls(sql: Sql, key: TelemetryKey): Promise<Map<string, MeasuredCall>> {
  const rows = await sql<{ id: string; duration_ms: number; success: boolean | null; wait: number }[]>`
    select e.tool_use_id as id, e.duration_ms, e.success,
      (select coalesce(sum(w.duration_ms), 0) from otel_spans t join otel_spans w
         on w.person_id = t.person_id and w.trace_id = t.trace_id and w.parent_span_id = t.span_id
           and w.name = 'claude_code.tool.blocked_on_user'
       where t.person_id = e.person_id and t.tool_use_id = e.tool_use_id and t.name = 'claude_code.tool') as wait
    from otel_events e
    where e.person_id = ${key.personId} and e.session_id = ${key.sessionId} and e.name = 'tool_result'
      and e.tool_use_id <> '' and e.duration_ms is not null`;
  return new Map(rows.map((r) => [r.id, { durationMs: r.duration_ms, success: r.success, permissionWaitMs: r.wait }]));
}

/** Per request id, the client's measured request (the laptop's `measuredRequests`). */
export async function teamMeasuredRequests(sql: Sql, key: TelemetryKey): Promise<Map<string, MeasuredRequest>> {
  const rows = await sql<{ id: string; duration_ms: number; ttft_ms: number | null; cost_usd: number | null }[]>`
    select request_id as id, duration_ms, ttft_ms, cost_usd from otel_events
    where person_id = ${key.personId} and session_id = ${key.sessionId}
      and name in ${sql.unsafe(MODEL_TIME_EVENTS)} and request_id <> '' and duration_ms is not null`;
  return new Map(rows.map((r) => [r.id, { durationMs: r.duration_ms, ttftMs: r.ttft_ms, costUsd: r.cost_usd }]));
}

/**
 * Sessions of `personIds` (every person when undefined) known only through telemetry, newest first as the laptop lists
 * them (`TELEMETRY_NEWEST_FIRST`: those without a time last).
 */
export async function teamTelemetryOnly(
  sql: Sql,
  personIds?: readonly number[],
  deviceIds?: readonly number[],
): Promise<TelemetryKey[]> {
  const rows = await sql<{ person_id: number; session_id: string }[]>`
    select e.person_id::int, e.session_id from otel_events e
    where e.session_id <> '' ${personIds ? sql`and e.person_id = any(${[...personIds]}::bigint[])` : sql``}
      ${deviceIds ? sql`and e.device_id = any(${[...deviceIds]}::bigint[])` : sql``}
      and not exists (select 1 from sessions s where s.person_id = e.person_id and s.session_id = e.session_id)
    group by e.person_id, e.session_id order by ${sql.unsafe(TELEMETRY_NEWEST_FIRST)}, e.person_id`;
  return rows.map((r) => ({ personId: r.person_id, sessionId: r.session_id }));
}

/** The session's steps in time order, at most `limit` (the laptop's `timeline`, by the same query). */
export async function teamTelemetryTimeline(sql: Sql, key: TelemetryKey, limit: number): Promise<TelemetryStep[]> {
  const rows = await sql.unsafe<TelemetryStepRow[]>(
    telemetryStepsSql('person_id = $1 AND session_id = $2', '$3', 'received_at'),
    [key.personId, key.sessionId, limit],
  );
  return rows.map(telemetryStepOf);
}

/** The uids of the pushed sessions (of `personIds`, or everyone's) that have telemetry: the list marks them. */
export async function teamMeasuredUids(sql: Sql, personIds?: readonly number[]): Promise<string[]> {
  const rows = await sql<{ uid: string }[]>`
    select s.uid from sessions s
    where ${personIds ? sql`s.person_id = any(${[...personIds]}::bigint[]) and` : sql``}
      exists (select 1 from otel_events e where e.person_id = s.person_id and e.session_id = s.session_id)`;
  return rows.map((r) => r.uid);
}
