/**
 * Migration 29: each session's failed requests in the list's copy (`session_list.api_errors`), so the team's "Has
 * errors" and errors sort take a session that died on an API error, as a laptop's do (index's `sessions.api_errors`).
 * A laptop sends them in its header's counts (`failedRequests`, no payload change: the counts are a free record); an
 * older laptop's sessions have none, read as 0. The list's trigger function is written again with the column
 * (migration 18's, one column more), and the list rebuilt whole. Shipped: never edit this text, add a migration.
 */
import { TITLED } from './titled.js';

const FAILED = (row: string) => `coalesce((${row}body->'header'->'counts'->>'failedRequests')::int, 0)`;

export const FAILED_REQUESTS_MIGRATIONS = [
  {
    version: 29,
    name: "each session's failed requests in the sessions list",
    sql: `
  alter table session_list add column api_errors integer not null default 0;
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
        (new.body->'time'->>'idleMs')::float8, ${TITLED('new.')}, ${FAILED('new.')});
    end if;
    return null;
  end $$;
  -- written again whole rather than updated: an update of every row would leave the table twice its size
  truncate session_list;
  insert into session_list
    select person_id, uid, device_id, agent, project_hash, project_dir, project_path, title, started_ms, ended_ms,
      models, versions, tool_calls, errors, cost_usd, (body->>'messages')::int, (body->>'expectedErrors')::int,
      (body->>'isLive')::boolean, (body->'time'->>'wallMs')::float8, (body->'time'->>'modelMs')::float8,
      (body->'time'->>'toolMs')::float8, (body->'time'->>'userMs')::float8, (body->'time'->>'idleMs')::float8,
      ${TITLED('')}, ${FAILED('')}
    from sessions;`,
  },
];
