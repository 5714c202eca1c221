/**
 * Migration 11, `usage_rollup`: the usage sums (`usage_sums`) added up over the sessions of one person, device,
 * agent and project (each as the session holds it: a summary-tier session names no project path), per UTC
 * quarter-hour, model and band. The usage page's totals, days, models, projects, agents and blocks read these rows
 * instead of grouping every session's sums with its session.
 * - A statement trigger on `responses` adds each insert's sums, in the push's transaction, as migration 10's does.
 * - A session's delete (re-push, tier change, forget, erase, a person's cascade) takes its sums off first (a row
 *   trigger before the delete, while its `usage_sums` rows are still there); a row summing nothing is removed.
 * - No earliest or latest time: a quarter-hour's start stands for its responses' (a day of any zone is a
 *   quarter-hour's), and the quarter-hours where a block may still be active are read per session (usage.ts).
 * Shipped: never edit this text, add a migration (its parts that later migrations changed are the `_11`
 * constants; the unsuffixed ones are the columns now).
 */
import { USAGE_SUMS_COLUMNS_10, usageSumsOf } from './usage-sums.js';

/** The key of a row: equality columns first (the unique index finds a row by them), the nullable ones last. */
const KEY = 'person_id, agent, project_hash, model, band, quarter, device_id, project_path, project_dir';

/** The sums a row holds as this migration made them, over `u` (rows in `usage_sums`' columns). */
const SUMMED_11 = `sum(u.n)::bigint as n, sum(u.input)::bigint as input, sum(u.output)::bigint as output,
    sum(u.cache_creation)::bigint as cache_creation, sum(u.cache_creation_1h)::bigint as cache_creation_1h,
    sum(u.cache_read)::bigint as cache_read, sum(u.reasoning)::bigint as reasoning`;

/** The sums a row holds as migration 16 (usage-unrecorded.ts) made them: the responses that recorded no input too. */
export const SUMMED_16 = `${SUMMED_11}, sum(u.unrecorded)::bigint as unrecorded`;

/** The sums a row holds now: migration 17 (output-unrecorded.ts) counts those that kept no final output count. */
const SUMMED = `${SUMMED_16}, sum(u.unrecorded_output)::bigint as unrecorded_output`;

/**
 * The table's rows over `sums` (rows in `usage_sums`' columns), each sum with its session's columns; the sums are
 * the table's now, or `summed`.
 */
export const usageRollupOf = (sums: string, summed = SUMMED): string => `
  select s.person_id, s.agent, s.project_hash, u.model, u.band, u.quarter, s.device_id, s.project_path,
    s.project_dir, ${summed}
  from ${sums} u join sessions s on s.person_id = u.person_id and s.uid = u.uid
  group by 1, 2, 3, 4, 5, 6, 7, 8, 9 order by 1, 2, 3, 4, 5, 6, 7, 8, 9`;

/** Adds the rows inserted (in the table's columns as this migration made them) to those already there. */
const ADD_11 = `on conflict (${KEY}) do update set n = usage_rollup.n + excluded.n,
  input = usage_rollup.input + excluded.input, output = usage_rollup.output + excluded.output,
  cache_creation = usage_rollup.cache_creation + excluded.cache_creation,
  cache_creation_1h = usage_rollup.cache_creation_1h + excluded.cache_creation_1h,
  cache_read = usage_rollup.cache_read + excluded.cache_read, reasoning = usage_rollup.reasoning + excluded.reasoning`;

/** Adds the rows inserted (in the table's columns as migration 16 made them) to those already there. */
export const USAGE_ROLLUP_ADD_16 = `${ADD_11}, unrecorded = usage_rollup.unrecorded + excluded.unrecorded`;

/** Adds the rows inserted (in the table's columns now) to those already there. */
export const USAGE_ROLLUP_ADD = `${USAGE_ROLLUP_ADD_16}, unrecorded_output = usage_rollup.unrecorded_output + excluded.unrecorded_output`;

export const USAGE_ROLLUP_MIGRATION = `
  create table usage_rollup (
    person_id bigint not null,
    agent text not null,
    project_hash text not null,
    model text not null,
    band integer not null,
    quarter bigint,
    device_id bigint,
    project_path text,
    project_dir text,
    n bigint not null,
    input bigint not null,
    output bigint not null,
    cache_creation bigint not null,
    cache_creation_1h bigint not null,
    cache_read bigint not null,
    reasoning bigint not null,
    unique nulls not distinct (${KEY})
  );
  create function usage_rollup_add() returns trigger language plpgsql set search_path from current as $$
  begin
    -- in key order, so two transactions adding to the same rows take their locks in one order
    insert into usage_rollup ${usageRollupOf(`(${usageSumsOf('added', USAGE_SUMS_COLUMNS_10)})`, SUMMED_11)}
    ${ADD_11};
    return null;
  end $$;
  create trigger responses_usage_rollup after insert on responses referencing new table as added
    for each statement execute function usage_rollup_add();
  create function usage_rollup_drop() returns trigger language plpgsql set search_path from current as $$
  begin
    insert into usage_rollup
      select old.person_id, old.agent, old.project_hash, u.model, u.band, u.quarter, old.device_id, old.project_path,
        old.project_dir, -u.n, -u.input, -u.output, -u.cache_creation, -u.cache_creation_1h, -u.cache_read,
        -u.reasoning
      from usage_sums u where u.person_id = old.person_id and u.uid = old.uid
      order by u.model, u.band, u.quarter
    ${ADD_11};
    delete from usage_rollup
      where person_id = old.person_id and agent = old.agent and project_hash = old.project_hash and n = 0;
    return old;
  end $$;
  create trigger sessions_usage_rollup before delete on sessions
    for each row execute function usage_rollup_drop();
  insert into usage_rollup ${usageRollupOf('usage_sums', SUMMED_11)};`;
