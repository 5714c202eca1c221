/**
 * The usage page's top sessions without sending every session's sums: PostgreSQL ranks the sessions by a cost
 * computed from this server's rates (each sum's tokens × its model and band's rates, the same linear rule as core's
 * `tokensCost`), and sends the sums of the sessions that can be among the top ones only. The builder's own rule
 * (`topSessionGroups`) then ranks those again, so the answer is the one it gives over every session.
 */
import { bandRates, findPrice, type PriceTable } from '@agentdash/core';
import type postgres from 'postgres';
import type { Sql } from './db.js';

/** A statement or a part of one. */
type Fragment =
  | postgres.PendingQuery<postgres.Row[]>
  | postgres.PendingQuery<(postgres.Row & Iterable<postgres.Row>)[]>;

/** How many sessions the usage page lists (the builder's `TOP_SESSIONS`). */
const TOP = 20;

/**
 * Twice the builder's margin (a cost summed in another order differs in its last bits): every session the builder
 * keeps as a candidate is sent, whatever order either side summed in.
 */
const MARGIN = 2e-6;

/**
 * A sum's time, model, band and counts as PostgreSQL sends them, after the columns that key it (usage.ts keys them
 * by project, this file by session).
 */
export type CountsTuple = [
  ts_ms: number | null,
  model: string,
  band: number,
  n: number,
  input: number,
  output: number,
  cache_creation: number,
  cache_creation_1h: number,
  cache_read: number,
  reasoning: number,
  unrecorded: number,
  unrecorded_output: number,
];

/** One sum of a session's responses of one model and band, as PostgreSQL sends it: its uid, then its counts. */
export type SessionSumTuple = [string, ...CountsTuple];

/** A model and band present in the sums. */
export interface ModelBand {
  readonly model: string;
  readonly band: number;
}

/** Each model and band's rates by `table`, as columns; a model the table does not know has none (costs null). */
function ratesOf(table: PriceTable, present: readonly ModelBand[]) {
  const columns = {
    model: [] as string[],
    band: [] as number[],
    input: [] as number[],
    output: [] as number[],
    write5m: [] as number[],
    write1h: [] as number[],
    read: [] as number[],
  };
  for (const { model, band } of present) {
    const price = findPrice(table, model);
    if (price === undefined) continue;
    const rates = bandRates(price, band);
    columns.model.push(model);
    columns.band.push(band);
    columns.input.push(rates.input);
    columns.output.push(rates.output);
    columns.write5m.push(rates.cacheWrite5m);
    columns.write1h.push(rates.cacheWrite1h);
    columns.read.push(rates.cacheRead);
  }
  return columns;
}

/**
 * The sums per session, model and band (`ts_ms` the earliest) of the sessions that can be among the top ones, in
 * the order the builder met them before (earliest first, then by uid, model and band), so its ties fall as before.
 * `sums` and `from`/`where`: the sums statement and the sessions the filter selects (`s`), joined as `q`; not joined
 * when nothing but the sums is `filtered` (every sum has its session).
 */
export async function topSessionSums(
  sql: Sql,
  parts: { sums: Fragment; from: Fragment; where: Fragment; filtered: boolean },
  table: PriceTable,
  present: readonly ModelBand[],
): Promise<SessionSumTuple[]> {
  const r = ratesOf(table, present);
  // Each session's cost straight from its sums (the cost is linear in them), then only the sessions that can be
  // among the top ones grouped per model and band; `q` inlined so the second reading is a plain scan.
  const [sent] = await sql<{ rows: SessionSumTuple[] }[]>`
    with q as not materialized (${parts.sums}), selected as not materialized (
      select q.* from ${parts.from} join q on q.person_id = s.person_id and q.uid = s.uid where ${parts.where}
    ), rates as (
      select * from unnest(${r.model}::text[], ${r.band}::int[], ${r.input}::float8[], ${r.output}::float8[],
        ${r.write5m}::float8[], ${r.write1h}::float8[], ${r.read}::float8[])
        as r(model, band, input, output, write5m, write1h, read)
    ), costs as (
      -- a session without a priced sum costs null, ranked below every priced one (the builder's -1)
      select q.uid, coalesce(sum(q.input * r.input + q.output * r.output
          + (q.cache_creation - least(q.cache_creation_1h, q.cache_creation)) * r.write5m
          + least(q.cache_creation_1h, q.cache_creation) * r.write1h + q.cache_read * r.read), -1) as cost,
        sum(q.n) as n
      from ${parts.filtered ? sql`selected` : sql`q`} q left join rates r on r.model = q.model and r.band = q.band
      group by q.uid
      -- a session whose responses are all another session's copies (response-copies.ts) has none
      having sum(q.n) > 0
    ), last as (
      select cost from costs order by cost desc, n desc offset ${TOP - 1} limit 1
    ), top as (
      select uid from costs
      where cost >= coalesce((select cost - ${MARGIN}::float8 * greatest(1, abs(cost)) from last), '-infinity')
    ), g as (
      select q.uid, min(q.first_ms) as ts_ms, q.model, q.band, sum(q.n)::bigint as n, sum(q.input)::bigint as input,
        sum(q.output)::bigint as output, sum(q.cache_creation)::bigint as cache_creation,
        sum(q.cache_creation_1h)::bigint as cache_creation_1h, sum(q.cache_read)::bigint as cache_read,
        sum(q.reasoning)::bigint as reasoning, sum(q.unrecorded)::bigint as unrecorded,
        sum(q.unrecorded_output)::bigint as unrecorded_output
      from ${parts.filtered ? sql`selected` : sql`q`} q where q.uid in (select uid from top)
      group by q.uid, q.model, q.band
      having sum(q.n) > 0
    )
    select coalesce(json_agg(json_build_array(uid, ts_ms, model, band, n, input, output, cache_creation,
        cache_creation_1h, cache_read, reasoning, unrecorded, unrecorded_output) order by ts_ms nulls first, uid, model, band), '[]')
      as rows
    from g`;
  return sent?.rows ?? [];
}
