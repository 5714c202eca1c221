/**
 * The usage and statistics pages over pushed sessions: their rows loaded for one request, then the local server's
 * own builders (`usageResponse`, `statsResponse`) and core's pricing run over them, so the numbers are the laptop's
 * by construction.
 *
 * Usage reads responses summed in PostgreSQL per session, UTC quarter-hour, model and request-size band rather than
 * one by one, which the builder's figures cannot tell apart:
 * - a day is a quarter-hour's in every time zone (every offset in use is a multiple of 15 minutes);
 * - a 5-hour billing block starts at the UTC hour of its first response, and a response more than 5 hours after the
 *   previous one is also more than 5 hours after its block's start: blocks depend on each response's hour only, and a
 *   sum keeps its quarter-hour's latest time (a block's last response);
 * - a sum of responses of one model is priced exactly within one band (core's `promptBand`), at the band's rates, as
 *   the index prices a session's usage parts; it counts the responses it stands for.
 */
import { bandPricer, defaultPriceTable, PROMPT_BOUNDARIES } from '@agentdash/core';
import type { UsageResponse as PricedUsage } from '@agentdash/index';
import { type StatsFilter, statsResponse, type UsageSession, type UsageSource, usageResponse } from '@agentdash/server';
import type { Sql } from './db.js';
import { FROM, projectDirOf, type TeamFilter, toMs, whereOf } from './session-sql.js';
import { statsSourceOf } from './stats.js';

/** A UTC quarter-hour, in milliseconds. */
const QUARTER_HOUR_MS = 900_000;

/** Responses of one session, quarter-hour, model and band, summed. */
interface SumRow {
  readonly uid: string;
  readonly ts_ms: number | null;
  readonly model: string;
  readonly band: number;
  readonly n: number;
  readonly input: number;
  readonly output: number;
  readonly cache_creation: number;
  readonly cache_creation_1h: number;
  readonly cache_read: number;
  readonly reasoning: number;
}

/** The few columns of a session the usage page reads; `listed`: active in the period (the time breakdown's). */
interface SessionColumns {
  readonly uid: string;
  readonly agent: string;
  readonly project_path: string | null;
  readonly project_dir: string | null;
  readonly project_hash: string;
  readonly title: string | null;
  readonly started_at: string | null;
  readonly time: UsageSession['time'];
  readonly listed: boolean;
}

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

/** `GET /api/usage` over the sessions `filter` selects: each pushed response once, priced by this server's table. */
export async function teamUsageResponse(sql: Sql, filter: TeamFilter, now: number, timeZone: string | undefined) {
  const { model, since, until, ...sessionFilter } = filter;
  const parts = [whereOf(sql, sessionFilter)];
  const from = toMs(since);
  const to = toMs(until);
  if (from !== undefined) parts.push(sql`r.ts_ms >= ${from}`);
  if (to !== undefined) parts.push(sql`r.ts_ms <= ${to}`);
  if (model) parts.push(sql`strpos(r.model, ${model}) > 0`);
  const where = parts.reduce((a, b) => sql`${a} and ${b}`);
  // the 1-hour cache writes as priced (core's `tokensCost` takes at most the cache writes), so a sum prices the same;
  // a request's band: how many boundaries its input side is above (tokens are whole: above b is at least b + 1)
  const sums = await sql<SumRow[]>`
    select uid, max(ts_ms) as ts_ms, model, band, count(*) as n, sum(input)::bigint as input,
      sum(output)::bigint as output, sum(cache_creation)::bigint as cache_creation,
      sum(cache_creation_1h)::bigint as cache_creation_1h, sum(cache_read)::bigint as cache_read,
      sum(reasoning)::bigint as reasoning
    from (
      select s.uid, r.ts_ms, r.model, r.input, r.output, r.cache_creation, r.cache_read, r.reasoning,
        least(r.cache_creation_1h, r.cache_creation) as cache_creation_1h,
        width_bucket(r.input + r.cache_creation + r.cache_read - 1, ${[...PROMPT_BOUNDARIES]}::bigint[]) as band
      from ${sql.unsafe(FROM)} join responses r on r.person_id = s.person_id and r.uid = s.uid
      where ${where}
    ) r
    group by uid, floor(ts_ms / ${QUARTER_HOUR_MS}::float8), model, band
    order by max(ts_ms) nulls first, uid, model, band`;
  // every session the filter selects (those with responses in range among them), and whether it was active in the
  // period, as the local index lists the time breakdown's sessions
  const columns = await sql<SessionColumns[]>`
    select s.uid, s.agent, s.project_path, s.project_dir, s.project_hash, s.title, s.started_at, s.body->'time' as time,
      (${whereOf(sql, { since, until })}) as listed
    from ${sql.unsafe(FROM)} where ${whereOf(sql, sessionFilter)} order by coalesce(s.started_ms, 0) desc`;
  const byUid = new Map<string, UsageSession & { agent: string }>();
  for (const c of columns) {
    byUid.set(c.uid, {
      id: c.uid,
      ref: c.uid,
      agent: c.agent,
      title: opt(c.title),
      projectPath: opt(c.project_path),
      projectDir: projectDirOf(c.project_dir, c.project_hash),
      startedAt: opt(c.started_at),
      time: c.time,
    });
  }
  const listed = columns.flatMap((c) => (c.listed ? [byUid.get(c.uid) as UsageSession] : []));
  const priceOf = bandPricer(defaultPriceTable);
  const responses = sums.map((r, i) => {
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
      key: `${r.uid}:${i}`,
      messageId: undefined,
      requestId: undefined,
      model: r.model,
      timestampMs: r.ts_ms ?? undefined,
      tokens,
      records: r.n,
      responses: r.n,
      context: {
        sessionId: r.uid,
        sessionKey: r.uid,
        agentId: undefined,
        project: s?.projectPath ?? s?.projectDir ?? '',
        agent: s?.agent ?? 'claude',
      },
      costUsd: priceOf(r.model, r.band, tokens),
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
