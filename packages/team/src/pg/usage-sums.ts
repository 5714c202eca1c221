/**
 * Migration 10, what the usage page reads instead of every response and every session's summary:
 * - `usage_sums`, each session's responses summed per UTC quarter-hour, model and request-size band (see usage.ts for
 *   why these sums give the same figures). A statement trigger on `responses` adds each insert's sums in the same
 *   transaction (any writer: a push, the bench's copies in SQL); a session's delete (re-push, forget, erase, a
 *   person's cascade) takes its sums with it;
 * - the time breakdown (`wall_ms` … `idle_ms`, the summary's `time`) in `session_list`, written by its trigger.
 * Shipped: never edit this text, add a migration (its parts that later migrations changed are the `_10`
 * constants; the unsuffixed ones are the columns now).
 */

/**
 * Core's `PROMPT_BOUNDARIES` when the table was made (a test holds them equal): other boundaries need a migration
 * that fills the table again.
 */
export const USAGE_SUMS_BOUNDARIES = [32_000, 128_000, 200_000, 256_000, 272_000] as const;

/**
 * The sums' columns over responses as this migration made them, grouped by their first five
 * (`group by 1, 2, 3, 4, 5`).
 */
export const USAGE_SUMS_COLUMNS_10 = `person_id, uid, floor(ts_ms / 900000::float8)::bigint as quarter, model,
  width_bucket(input + cache_creation + cache_read - 1, '{${USAGE_SUMS_BOUNDARIES.join(',')}}'::bigint[]) as band,
  min(ts_ms) as first_ms, max(ts_ms) as last_ms, count(*) as n, sum(input) as input, sum(output) as output,
  sum(cache_creation) as cache_creation, sum(least(cache_creation_1h, cache_creation)) as cache_creation_1h,
  sum(cache_read) as cache_read, sum(reasoning) as reasoning`;

/** The sums' columns as migration 16 (usage-unrecorded.ts) made them: it counts the responses that recorded no input. */
export const USAGE_SUMS_COLUMNS_16 = `${USAGE_SUMS_COLUMNS_10}, count(*) filter (where input_unrecorded) as unrecorded`;

/** The sums' columns now: migration 17 (output-unrecorded.ts) counts those that kept no final output count. */
export const USAGE_SUMS_COLUMNS = `${USAGE_SUMS_COLUMNS_16}, count(*) filter (where output_unrecorded) as unrecorded_output`;

/**
 * The sums of the responses in `from`, one row per (person, uid, quarter, model, band), in the table's columns (now,
 * or `columns`).
 */
export const usageSumsOf = (from: string, columns = USAGE_SUMS_COLUMNS): string =>
  `select ${columns} from ${from} group by 1, 2, 3, 4, 5`;

/** Adds the sums inserted to those of the same key already there, as this migration did. */
export const USAGE_SUMS_ADD_10 = `on conflict (person_id, uid, quarter, model, band) do update set
      first_ms = least(usage_sums.first_ms, excluded.first_ms),
      last_ms = greatest(usage_sums.last_ms, excluded.last_ms), n = usage_sums.n + excluded.n,
      input = usage_sums.input + excluded.input, output = usage_sums.output + excluded.output,
      cache_creation = usage_sums.cache_creation + excluded.cache_creation,
      cache_creation_1h = usage_sums.cache_creation_1h + excluded.cache_creation_1h,
      cache_read = usage_sums.cache_read + excluded.cache_read, reasoning = usage_sums.reasoning + excluded.reasoning`;

export const USAGE_SUMS_MIGRATION = `
  create table usage_sums (
    person_id bigint not null,
    uid text not null,
    quarter bigint,
    model text not null,
    band integer not null,
    first_ms bigint,
    last_ms bigint,
    n bigint not null,
    input bigint not null,
    output bigint not null,
    cache_creation bigint not null,
    cache_creation_1h bigint not null,
    cache_read bigint not null,
    reasoning bigint not null,
    unique nulls not distinct (person_id, uid, quarter, model, band),
    foreign key (person_id, uid) references sessions(person_id, uid) on delete cascade
  );
  -- search_path from the migration's: the schema's own table, whatever path the writer has
  create function usage_sums_add() returns trigger language plpgsql set search_path from current as $$
  begin
    -- a session's responses come in batches (statements) of at most a thousand: a later batch adds to the sums
    insert into usage_sums ${usageSumsOf('added', USAGE_SUMS_COLUMNS_10)}
    ${USAGE_SUMS_ADD_10};
    return null;
  end $$;
  create trigger responses_usage_sums after insert on responses referencing new table as added
    for each statement execute function usage_sums_add();
  insert into usage_sums ${usageSumsOf('responses', USAGE_SUMS_COLUMNS_10)};
  alter table session_list add column wall_ms float8, add column model_ms float8, add column tool_ms float8,
    add column user_ms float8, add column idle_ms float8;
  create or replace function session_list_sync() returns trigger language plpgsql set search_path from current as $$
  begin
    if tg_op <> 'INSERT' then
      delete from session_list where person_id = old.person_id and uid = old.uid;
    end if;
    if tg_op <> 'DELETE' then
      insert into session_list values (new.person_id, new.uid, new.device_id, new.agent, new.project_hash,
        new.project_dir, new.project_path, new.title, new.started_ms, new.ended_ms, new.models, new.versions,
        new.tool_calls, new.errors, new.cost_usd, (new.body->>'messages')::int, (new.body->>'expectedErrors')::int,
        (new.body->>'isLive')::boolean, (new.body->'time'->>'wallMs')::float8, (new.body->'time'->>'modelMs')::float8,
        (new.body->'time'->>'toolMs')::float8, (new.body->'time'->>'userMs')::float8,
        (new.body->'time'->>'idleMs')::float8);
    end if;
    return null;
  end $$;
  -- written again whole rather than updated: an update of every row would leave the table twice its size
  truncate session_list;
  insert into session_list
    select person_id, uid, device_id, agent, project_hash, project_dir, project_path, title, started_ms, ended_ms,
      models, versions, tool_calls, errors, cost_usd, (body->>'messages')::int, (body->>'expectedErrors')::int,
      (body->>'isLive')::boolean, (body->'time'->>'wallMs')::float8, (body->'time'->>'modelMs')::float8,
      (body->'time'->>'toolMs')::float8, (body->'time'->>'userMs')::float8, (body->'time'->>'idleMs')::float8
    from sessions;`;
