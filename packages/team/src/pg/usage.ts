/**
 * The usage and statistics pages over pushed sessions: their rows loaded for one request, then the local server's
 * own builders (`usageResponse`, `statsResponse`) and core's pricing run over them, so the numbers are the laptop's
 * by construction.
 */
import { defaultPriceTable, responsePricer } from '@agentdash/core';
import type { UsageResponse as PricedUsage, SessionSummary } from '@agentdash/index';
import { type StatsFilter, statsResponse, type UsageSource, usageResponse } from '@agentdash/server';
import type { Sql } from './db.js';
import { FROM, ROW_COLUMNS, type SessionDbRow, summaryOf, type TeamFilter, whereOf } from './session-sql.js';
import { statsSourceOf } from './stats.js';

const toMs = (t: unknown): number | undefined => {
  if (t === undefined) return undefined;
  const ms = typeof t === 'number' ? t : Date.parse(String(t));
  return Number.isFinite(ms) ? ms : undefined;
};

interface ResponseRow {
  readonly uid: string;
  readonly seq: number;
  readonly ts_ms: number | null;
  readonly model: string;
  readonly agent_id: string | null;
  readonly input: number;
  readonly output: number;
  readonly cache_creation: number;
  readonly cache_creation_1h: number;
  readonly cache_read: number;
  readonly reasoning: number;
}

/** `GET /api/usage` over the sessions `filter` selects: each pushed response once, priced by this server's table. */
export async function teamUsageResponse(sql: Sql, filter: TeamFilter, now: number, timeZone: string | undefined) {
  const { model, since, until, ...sessionFilter } = filter;
  const sessionWhere = whereOf(sql, sessionFilter);
  const parts = [sessionWhere];
  const from = toMs(since);
  const to = toMs(until);
  if (from !== undefined) parts.push(sql`r.ts_ms >= ${from}`);
  if (to !== undefined) parts.push(sql`r.ts_ms <= ${to}`);
  if (model) parts.push(sql`strpos(r.model, ${model}) > 0`);
  const where = parts.reduce((a, b) => sql`${a} and ${b}`);
  const responseRows = await sql<ResponseRow[]>`
    select s.uid, r.seq, r.ts_ms, r.model, r.agent_id, r.input, r.output, r.cache_creation, r.cache_creation_1h, r.cache_read,
      r.reasoning
    from ${sql.unsafe(FROM)} join responses r on r.person_id = s.person_id and r.uid = s.uid
    where ${where} order by r.ts_ms nulls first, s.uid, r.seq`;
  // the sessions of the time breakdown: those the filter selects, active in the period (as the local index lists them)
  const listed = (
    await sql<SessionDbRow[]>`select ${sql.unsafe(ROW_COLUMNS)} from ${sql.unsafe(FROM)}
      where ${whereOf(sql, { ...sessionFilter, since, until })} order by coalesce(s.started_ms, 0) desc`
  ).map(summaryOf);
  const byUid = new Map<string, SessionSummary>(listed.map((s) => [s.id, s]));
  const missing = [...new Set(responseRows.map((r) => r.uid))].filter((uid) => !byUid.has(uid));
  if (missing.length > 0) {
    const more = await sql<SessionDbRow[]>`select ${sql.unsafe(ROW_COLUMNS)} from ${sql.unsafe(FROM)}
      where s.uid = any(${missing}::text[])`;
    for (const s of more.map(summaryOf)) byUid.set(s.id, s);
  }
  const priceOf = responsePricer(defaultPriceTable);
  const responses: PricedUsage[] = responseRows.map((r) => {
    const s = byUid.get(r.uid);
    const tokens = {
      inputTokens: r.input,
      outputTokens: r.output,
      cacheCreationInputTokens: r.cache_creation,
      cacheCreation1hInputTokens: r.cache_creation_1h,
      cacheReadInputTokens: r.cache_read,
      reasoningOutputTokens: r.reasoning,
    };
    return {
      key: `${r.uid}:${r.seq}`,
      messageId: undefined,
      requestId: undefined,
      model: r.model,
      timestampMs: r.ts_ms ?? undefined,
      tokens,
      records: 1,
      context: {
        sessionId: r.uid,
        sessionKey: r.uid,
        agentId: r.agent_id ?? undefined,
        project: s?.projectPath ?? s?.projectDir ?? '',
        agent: s?.agent ?? 'claude',
      },
      costUsd: priceOf(r.model, tokens),
    } as PricedUsage;
  });
  const source: UsageSource = {
    usageResponses: () => responses,
    getSession: (id) => byUid.get(id),
    listSessions: () => listed,
    prices: defaultPriceTable,
  };
  return usageResponse(source, {}, now, timeZone);
}

/** `GET /api/stats` over the pushed calls the filter selects. */
export async function teamStatsResponse(sql: Sql, filter: StatsFilter) {
  return statsResponse(await statsSourceOf(sql, filter as TeamFilter), filter);
}
