/**
 * Migration 16, the responses that recorded no input (core's `ResponseUsage.inputUnrecorded`: Copilot CLI 1.0.64's
 * transcripts give output tokens only), so the team's usage names the models whose cost is a lower bound, as the
 * laptop's does:
 * - `responses.input_unrecorded`, as pushed (false for the rows stored before, and for older clients, which never
 *   send one: Copilot's input then reads as 0, as it did);
 * - `unrecorded` in `usage_sums` and `usage_rollup`, how many of a row's responses recorded no input; their trigger
 *   functions written again to add and take it off with the rest. The rows stored before sum none: 0.
 * Shipped: never edit this text, add a migration (its parts that later ones changed are the `_16` constants).
 */
import { SUMMED_16, USAGE_ROLLUP_ADD_16, usageRollupOf } from './usage-rollup.js';
import { USAGE_SUMS_ADD_10, USAGE_SUMS_COLUMNS_16, usageSumsOf } from './usage-sums.js';

/** The responses inserted, summed in `usage_sums`' columns as this migration made them. */
const ADDED_16 = usageSumsOf('added', USAGE_SUMS_COLUMNS_16);

export const USAGE_UNRECORDED_MIGRATION = `
  alter table responses add column input_unrecorded boolean not null default false;
  alter table usage_sums add column unrecorded bigint not null default 0;
  alter table usage_rollup add column unrecorded bigint not null default 0;
  create or replace function usage_sums_add() returns trigger language plpgsql set search_path from current as $$
  begin
    insert into usage_sums ${ADDED_16}
    ${USAGE_SUMS_ADD_10}, unrecorded = usage_sums.unrecorded + excluded.unrecorded;
    return null;
  end $$;
  create or replace function usage_rollup_add() returns trigger language plpgsql set search_path from current as $$
  begin
    insert into usage_rollup ${usageRollupOf(`(${ADDED_16})`, SUMMED_16)}
    ${USAGE_ROLLUP_ADD_16};
    return null;
  end $$;
  create or replace function usage_rollup_drop() returns trigger language plpgsql set search_path from current as $$
  begin
    insert into usage_rollup
      select old.person_id, old.agent, old.project_hash, u.model, u.band, u.quarter, old.device_id, old.project_path,
        old.project_dir, -u.n, -u.input, -u.output, -u.cache_creation, -u.cache_creation_1h, -u.cache_read,
        -u.reasoning, -u.unrecorded
      from usage_sums u where u.person_id = old.person_id and u.uid = old.uid
      order by u.model, u.band, u.quarter
    ${USAGE_ROLLUP_ADD_16};
    delete from usage_rollup
      where person_id = old.person_id and agent = old.agent and project_hash = old.project_hash and n = 0;
    return old;
  end $$;`;
