/**
 * The usage and statistics pages over pushed sessions: their rows loaded for one request, then the local server's
 * own builders (`usageResponse`, `statsResponse`) and core's pricing run over them, so the numbers are the laptop's
 * by construction.
 *
 * Usage reads responses summed in PostgreSQL per UTC quarter-hour, model and request-size band (per project, or per
 * session for the top sessions) rather than one by one, which the builder's figures cannot tell apart:
 * - a day is a quarter-hour's in every time zone (every offset in use is a multiple of 15 minutes);
 * - a 5-hour billing block starts at the UTC hour of its first response, and a response more than 5 hours after the
 *   previous one is also more than 5 hours after its block's start: blocks depend on each response's hour only; a
 *   block is active while `now` is before its end (its last response, after its start, is then less than 5 hours
 *   old), so any time within a quarter-hour stands for its responses';
 * - a sum of responses of one model is priced exactly within one band (core's `promptBand`), at the band's rates, as
 *   the index prices a session's usage parts; it counts the responses it stands for.
 */
import { bandPricer, defaultPriceTable, zeroTime } from '@agentdash/core';
import { claudeModelQuery } from '@agentdash/core/base';
import { DEFAULT_AGENT, type UsageResponse as PricedUsage } from '@agentdash/index';
import {
  type StatsFilter,
  statsResponse,
  topSessionGroups,
  type UsageSession,
  type UsageSource,
  usageResponse,
} from '@agentdash/server';
import type { Sql } from './db.js';
import { copiedResponseSums } from './response-copies.js';
import { FROM, listFromOf, projectDirOf, type TeamFilter, toMs, whereOf } from './session-sql.js';
import { statsSourceOf } from './stats.js';
import { USAGE_SUMS_COLUMNS } from './usage-sums.js';
import { type CountsTuple, topSessionSums } from './usage-top.js';

/** A part of a statement (a condition). */
type Part = ReturnType<typeof whereOf>;

/** A UTC quarter-hour, in milliseconds. */
const QUARTER_HOUR_MS = 900_000;

/** Token sums of responses of one model and band. */
interface Sums {
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
  /** How many of the responses recorded no input (core's `ResponseUsage.inputUnrecorded`). */
  readonly unrecorded: number;
  /** How many kept only the stream's first output count (core's `ResponseUsage.outputUnrecorded`). */
  readonly unrecorded_output: number;
}

/**
 * Responses summed per project, agent, UTC quarter-hour, model and band (`uid` and `person` null: totals, days,
 * models, projects, agents, blocks), per person, model and band (`person` set: the people), or per session, model and
 * band (`uid` set: the top sessions; `ts_ms` the earliest).
 */
interface SumRow extends Sums {
  readonly uid: string | null;
  /** Who pushed the sessions summed (null: the sums per project, and the top sessions'). */
  readonly person: string | null;
  readonly agent: string | null;
  readonly project_path: string | null;
  readonly project_dir: string | null;
  readonly project_hash: string | null;
}

/** A `SumRow` per project as PostgreSQL sends it: its fields in order. */
type SumTuple = [string, string | null, string | null, string | null, string | null, ...CountsTuple];

/** A `SumRow` from the columns that key it and its counts. */
function sumRowOf(
  keys: Pick<SumRow, 'uid' | 'person' | 'agent' | 'project_path' | 'project_dir' | 'project_hash'>,
  [
    ts_ms,
    model,
    band,
    n,
    input,
    output,
    cache_creation,
    cache_creation_1h,
    cache_read,
    reasoning,
    unrecorded,
    unrecorded_output,
  ]: CountsTuple,
): SumRow {
  const counts = {
    n,
    input,
    output,
    cache_creation,
    cache_creation_1h,
    cache_read,
    reasoning,
    unrecorded,
    unrecorded_output,
  };
  return { ...keys, ts_ms, model, band, ...counts };
}

/** The time breakdown's sessions with time, summed per project and UTC quarter-hour of their start. */
interface TimeRow {
  readonly project_path: string | null;
  readonly project_dir: string | null;
  readonly project_hash: string | null;
  readonly started_ms: number | null;
  readonly sessions: number;
  readonly wall: number;
  readonly model: number;
  readonly tool: number;
  readonly user: number;
  readonly idle: number;
}

/** The few columns of a top session the usage page shows. */
interface SessionColumns {
  readonly uid: string;
  readonly project_path: string | null;
  readonly project_dir: string | null;
  readonly project_hash: string;
  readonly title: string | null;
  readonly started_at: string | null;
}

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

/**
 * The sums of the responses of models containing `model`, from `from` to `to` (ms, inclusive; the sessions are
 * chosen by the join after): the kept sums of the quarter-hours wholly inside the period, and the responses of its first and last
 * quarter-hours summed here (a kept sum cannot be cut); the rows in `usage_sums`' columns. The edges only when the
 * kept sums are `rolled` (read from `usage_rollup` instead).
 */
function sumsOf(sql: Sql, model: string | undefined, from?: number, to?: number, rolled = false) {
  const kept = [rolled ? sql`false` : sql`true`];
  if (model) kept.push(sql`strpos(lower(u.model), ${claudeModelQuery(model)}) > 0`);
  const first = quarterOf(from);
  const last = quarterOf(to);
  if (first !== undefined) kept.push(sql`u.quarter > ${first}`);
  if (last !== undefined) kept.push(sql`u.quarter < ${last}`);
  const and = (parts: Part[]) => parts.reduce((a, b) => sql`${a} and ${b}`);
  const whole = sql`select u.person_id, u.uid, u.quarter, u.model, u.band, u.first_ms, u.last_ms, u.n, u.input,
    u.output, u.cache_creation, u.cache_creation_1h, u.cache_read, u.reasoning, u.unrecorded,
    u.unrecorded_output from usage_sums u
    where ${and(kept)}`;
  if (first === undefined && last === undefined) return whole;
  // the edges: responses of the first and last quarter-hours within the period (the responses' time index)
  const edges = [sql`true`];
  if (model) edges.push(sql`strpos(lower(u.model), ${claudeModelQuery(model)}) > 0`);
  if (from !== undefined) edges.push(sql`u.ts_ms >= ${from}`);
  if (to !== undefined) edges.push(sql`u.ts_ms <= ${to}`);
  const near = [
    ...(first === undefined ? [] : [sql`u.ts_ms < ${(first + 1) * QUARTER_HOUR_MS}`]),
    ...(last === undefined ? [] : [sql`u.ts_ms >= ${last * QUARTER_HOUR_MS}`]),
  ];
  edges.push(near.reduce((a, b) => sql`(${a} or ${b})`));
  return sql`${whole} union all select ${sql.unsafe(USAGE_SUMS_COLUMNS)} from responses u where ${and(edges)}
    group by 1, 2, 3, 4, 5`;
}

/** The UTC quarter-hour of a time (ms). */
const quarterOf = (ms: number | undefined) => (ms === undefined ? undefined : Math.floor(ms / QUARTER_HOUR_MS));

/**
 * A project as the usage page keys it (`projectOf`: its path, else its folder or hash): the folder and hash columns
 * only where there is no path, so PostgreSQL groups by what the page shows (copies of one project pushed by many
 * people, or folders that share a path, are one group, not one each).
 */
const PROJECT_KEY = `case when project_path is null then project_dir end as project_dir,
  case when project_path is null then project_hash end as project_hash`;

/** The session filters `usage_rollup`'s own columns answer; any other needs each session's sums. */
const ROLLUP_FILTERS = new Set(['agent', 'project', 'person', 'device']);

/**
 * `usage_rollup`'s rows (`s`) the filter selects, of the models containing `model`, in the quarter-hours wholly
 * inside the period (`first` and `last` excluded): each with its quarter-hour's start as its time.
 */
function rolledOf(
  sql: Sql,
  filter: TeamFilter,
  model: string | undefined,
  quarters: { first?: number | undefined; last?: number | undefined },
) {
  const parts = [whereOf(sql, filter)];
  if (model) parts.push(sql`strpos(lower(s.model), ${claudeModelQuery(model)}) > 0`);
  if (quarters.first !== undefined) parts.push(sql`s.quarter > ${quarters.first}`);
  if (quarters.last !== undefined) parts.push(sql`s.quarter < ${quarters.last}`);
  const from = listFromOf(filter).replace('session_list s', 'usage_rollup s');
  return sql`select s.person_id, s.agent, s.project_path, s.project_dir, s.project_hash, s.quarter, s.model, s.band,
      s.quarter * ${QUARTER_HOUR_MS}::bigint as ts_ms, s.n, s.input, s.output, s.cache_creation, s.cache_creation_1h,
      s.cache_read, s.reasoning, s.unrecorded, s.unrecorded_output
    from ${sql.unsafe(from)} where ${parts.reduce((a, b) => sql`${a} and ${b}`)}`;
}

/**
 * The responses `filter` selects, summed as the usage page reads them, in two sets PostgreSQL groups in one pass
 * (`grouping sets`): per agent, project, UTC quarter-hour, model and band (`person` null: totals, days, models,
 * projects, agents, blocks), and per person, model and band (`person` set: the people's rows). Grouped per person and
 * project together, a project thirty people share was thirty rows for each quarter-hour; now the rows grow with the
 * projects' quarter-hours plus the people, never their product.
 */
export async function teamUsageSums(sql: Sql, filter: TeamFilter): Promise<readonly SumRow[]> {
  const { model, since, until, ...sessionFilter } = filter;
  const from = toMs(since);
  const to = toMs(until);
  // Per project: from `usage_rollup` when the filter is one its columns answer (the quarter-hours a period cuts
  // summed from their responses), else from each selected session's sums (`usage_sums`).
  const rolled = Object.entries(sessionFilter).every(([k, v]) => v === undefined || ROLLUP_FILTERS.has(k));
  const quarters = { first: quarterOf(from), last: quarterOf(to) };
  const rollup = rolled ? sql`union all ${rolledOf(sql, sessionFilter, model, quarters)}` : sql``;
  // The 1-hour cache writes as priced (core's `tokensCost` takes at most the cache writes), so a sum prices the same.
  // one row holding every sum as a JSON array of arrays, parsed by JSON.parse at once
  const [sent] = await sql<{ rows: SumTuple[] }[]>`
    with q as (${sumsOf(sql, model, from, to, rolled)} union all ${copiedResponseSums(sql, sessionFilter, model, from, to)}), x as (
      select s.person_id, s.agent, s.project_path, s.project_dir, s.project_hash, q.quarter, q.model, q.band,
        q.last_ms as ts_ms,
        q.n, q.input, q.output, q.cache_creation, q.cache_creation_1h, q.cache_read, q.reasoning, q.unrecorded,
        q.unrecorded_output
      from ${sql.unsafe(listFromOf(sessionFilter))} join q on q.person_id = s.person_id and q.uid = s.uid
      where ${whereOf(sql, sessionFilter)}
      ${rollup}
    ), g as (
      select grouping(person_id) as by_project, person_id, agent, project_path, project_dir, project_hash,
        max(ts_ms) as ts_ms, model, band,
        sum(n)::bigint as n,
        sum(input)::bigint as input, sum(output)::bigint as output, sum(cache_creation)::bigint as cache_creation,
        sum(cache_creation_1h)::bigint as cache_creation_1h, sum(cache_read)::bigint as cache_read,
        sum(reasoning)::bigint as reasoning, sum(unrecorded)::bigint as unrecorded,
        sum(unrecorded_output)::bigint as unrecorded_output
      from (select person_id, agent, project_path, ${sql.unsafe(PROJECT_KEY)}, quarter, model, band, ts_ms, n,
        input, output, cache_creation, cache_creation_1h, cache_read, reasoning, unrecorded, unrecorded_output
        from x) x
      group by grouping sets ((agent, project_path, project_dir, project_hash, quarter, model, band),
        (person_id, model, band))
      -- a sum whose responses are all another session's copies is none
      having sum(n) <> 0
    )
    select coalesce(json_agg(json_build_array(p.name, agent, project_path, project_dir, project_hash, ts_ms, model,
        band, n, input, output, cache_creation, cache_creation_1h, cache_read, reasoning, unrecorded,
        unrecorded_output)
      order by ts_ms nulls first, p.name nulls first, agent, project_path, project_dir, project_hash, model, band),
      '[]') as rows
    from g left join people p on p.id = g.person_id and g.by_project = 0
    -- a person's rows only for a person the server knows: an erased person's responses stay in the totals alone
    -- (a row of the person set without a name must never be read as a row of the project set)
    where g.by_project = 1 or p.name is not null`;
  return (sent?.rows ?? []).map(([person, agent, project_path, project_dir, project_hash, ...counts]) =>
    sumRowOf({ uid: null, person, agent, project_path, project_dir, project_hash }, counts),
  );
}

/**
 * `GET /api/usage` over the sessions `filter` selects: each pushed response once, priced by this server's table.
 * Nothing is sent per session but the top sessions' sums: the time breakdown's sessions are summed per project and
 * the quarter-hour they started in (a day of any zone depends only on the quarter-hour), each sum counting them.
 */
export async function teamUsageResponse(sql: Sql, filter: TeamFilter, now: number, timeZone: string | undefined) {
  const { model, since, until, ...sessionFilter } = filter;
  const from = toMs(since);
  const to = toMs(until);
  const listFrom = () => sql.unsafe(listFromOf(sessionFilter));
  const sums = await teamUsageSums(sql, filter);
  // the sessions that can be among the top ones, per model and band, ranked in PostgreSQL by this server's rates
  const present = new Map(sums.map((r) => [`${r.band} ${r.model}`, { model: r.model, band: r.band }]));
  const sessionSums = (
    await topSessionSums(
      sql,
      {
        sums: sql`${sumsOf(sql, model, from, to)} union all ${copiedResponseSums(sql, sessionFilter, model, from, to)}`,
        from: listFrom(),
        where: whereOf(sql, sessionFilter),
        filtered: Object.values(sessionFilter).some((v) => v !== undefined),
      },
      defaultPriceTable,
      [...present.values()],
    )
  ).map(([uid, ...counts]) =>
    sumRowOf({ uid, person: null, agent: null, project_path: null, project_dir: null, project_hash: null }, counts),
  );
  // each session's time from the list's copy (its summary not read)
  const times = await sql<TimeRow[]>`
    select s.project_path, ${sql.unsafe(PROJECT_KEY)}, min(s.started_ms) as started_ms, count(*)::int as sessions,
      sum(s.wall_ms) as wall, sum(s.model_ms) as model, sum(s.tool_ms) as tool, sum(s.user_ms) as user,
      sum(s.idle_ms) as idle
    from ${listFrom()}
    where ${whereOf(sql, sessionFilter)} and ${whereOf(sql, { since, until })} and s.wall_ms <> 0
    group by 1, 2, 3, floor(s.started_ms / ${QUARTER_HOUR_MS}::float8)
    order by max(coalesce(s.started_ms, 0)) desc, 1, 2, 3, 4`;
  const priceOf = bandPricer(defaultPriceTable);
  const projectOf = (path: string | null, dir: string | null, hash: string) => path ?? projectDirOf(dir, hash);
  const priced = (r: SumRow, context: PricedUsage['context'], i: number) => {
    const tokens = {
      inputTokens: r.input,
      outputTokens: r.output,
      cacheCreationInputTokens: r.cache_creation,
      cacheCreation1hInputTokens: r.cache_creation_1h,
      cacheReadInputTokens: r.cache_read,
      reasoningOutputTokens: r.reasoning,
    };
    return {
      key: String(i),
      messageId: undefined,
      requestId: undefined,
      model: r.model,
      timestampMs: r.ts_ms ?? undefined,
      tokens,
      records: r.n,
      responses: r.n,
      // a sum of one model: the model's cost is a lower bound where any of its responses recorded no input
      ...(r.unrecorded > 0 ? { inputUnrecorded: true } : {}),
      // and its output where any kept only the stream's first output count
      ...(r.unrecorded_output > 0 ? { outputUnrecorded: true } : {}),
      context,
      costUsd: priceOf(r.model, r.band, tokens),
    } as PricedUsage;
  };
  const responses: PricedUsage[] = [];
  const perSession: PricedUsage[] = [];
  const perPerson: PricedUsage[] = [];
  [...sums, ...sessionSums].forEach((r, i) => {
    if (r.uid !== null) {
      const context = { sessionId: r.uid, sessionKey: r.uid, agentId: undefined, project: '', agent: DEFAULT_AGENT };
      perSession.push(priced(r, context as PricedUsage['context'], i));
    } else if (r.person !== null) {
      const context = { sessionId: '', sessionKey: '', agentId: undefined, project: '', agent: DEFAULT_AGENT };
      perPerson.push(priced(r, { ...context, person: r.person } as PricedUsage['context'], i));
    } else {
      const project = projectOf(r.project_path, r.project_dir, r.project_hash ?? '');
      const context = {
        sessionId: '',
        sessionKey: '',
        agentId: undefined,
        project,
        agent: r.agent ?? DEFAULT_AGENT,
      };
      responses.push(priced(r, context as PricedUsage['context'], i));
    }
  });
  // the top sessions' columns only
  const top = topSessionGroups(perSession).map((g) => g.id);
  const topIds = new Set(top);
  const columns = await sql<SessionColumns[]>`
    select s.uid, s.project_path, s.project_dir, s.project_hash, s.title, s.started_at
    from ${sql.unsafe(FROM)} where s.uid = any(${top}::text[]) and ${whereOf(sql, sessionFilter)}`;
  const byUid = new Map<string, UsageSession>();
  for (const c of columns) {
    byUid.set(c.uid, {
      id: c.uid,
      ref: c.uid,
      title: opt(c.title),
      projectPath: opt(c.project_path),
      projectDir: projectDirOf(c.project_dir, c.project_hash),
      startedAt: opt(c.started_at),
      time: zeroTime,
    });
  }
  const listed = times.map(
    (t): UsageSession => ({
      id: '',
      ref: '',
      title: undefined,
      projectPath: opt(t.project_path),
      projectDir: projectDirOf(t.project_dir, t.project_hash ?? ''),
      startedAt: t.started_ms === null ? undefined : new Date(Number(t.started_ms)).toISOString(),
      time: { wallMs: t.wall, modelMs: t.model, toolMs: t.tool, userMs: t.user, idleMs: t.idle },
      sessions: t.sessions,
    }),
  );
  const source: UsageSource = {
    usageResponses: () => responses,
    // the top sessions' sums, in their order: the builder ranks them again (the same rule, over fewer sessions)
    sessionUsage: () => perSession.filter((r) => topIds.has(r.context.sessionKey)),
    // the people's sums, apart from the rest (which name no person)
    personUsage: () => perPerson,
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
