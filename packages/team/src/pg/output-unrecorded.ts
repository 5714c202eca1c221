/**
 * Migration 17, the responses that kept only the stream's first output count (core's `ResponseUsage.outputUnrecorded`:
 * Claude Code's block records written before the response's final count), so the team's usage names the models
 * whose output and cost are lower bounds, as the laptop's does:
 * - `responses.output_unrecorded`, as pushed (false for the rows stored before, and for clients of payload 4 and
 *   older, which never send one);
 * - `unrecorded_output` in `usage_sums` and `usage_rollup`, how many of a row's responses kept no final output count;
 *   their trigger functions written again to add and take it off with the rest (migration 16's, one column more).
 *   The rows stored before sum none: 0.
 * Shipped: never edit this text, add a migration.
 */
import { USAGE_ROLLUP_ADD, usageRollupOf } from './usage-rollup.js';
import { USAGE_SUMS_ADD_10, usageSumsOf } from './usage-sums.js';

export const OUTPUT_UNRECORDED_MIGRATION = `
  alter table responses add column output_unrecorded boolean not null default false;
  alter table usage_sums add column unrecorded_output bigint not null default 0;
  alter table usage_rollup add column unrecorded_output bigint not null default 0;
  create or replace function usage_sums_add() returns trigger language plpgsql set search_path from current as $$
  begin
    insert into usage_sums ${usageSumsOf('added')}
    ${USAGE_SUMS_ADD_10}, unrecorded = usage_sums.unrecorded + excluded.unrecorded,
      unrecorded_output = usage_sums.unrecorded_output + excluded.unrecorded_output;
    return null;
  end $$;
  create or replace function usage_rollup_add() returns trigger language plpgsql set search_path from current as $$
  begin
    insert into usage_rollup ${usageRollupOf(`(${usageSumsOf('added')})`)}
    ${USAGE_ROLLUP_ADD};
    return null;
  end $$;
  create or replace function usage_rollup_drop() returns trigger language plpgsql set search_path from current as $$
  begin
    insert into usage_rollup
      select old.person_id, old.agent, old.project_hash, u.model, u.band, u.quarter, old.device_id, old.project_path,
        old.project_dir, -u.n, -u.input, -u.output, -u.cache_creation, -u.cache_creation_1h, -u.cache_read,
        -u.reasoning, -u.unrecorded, -u.unrecorded_output
      from usage_sums u where u.person_id = old.person_id and u.uid = old.uid
      order by u.model, u.band, u.quarter
    ${USAGE_ROLLUP_ADD};
    delete from usage_rollup
      where person_id = old.person_id and agent = old.agent and project_hash = old.project_hash and n = 0;
    return old;
  end $$;`;
