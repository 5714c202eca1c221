/**
 * Migration 18, whether each session has a title on its laptop (`session_list.titled`), for the list's rule that
 * hides an empty or warm-up session (index's `shownSession`: no title and no tool call). A summary-tier session's
 * title stays on the laptop, and the rule read its missing title as none: every such session without a tool call was
 * hidden, real chats among them. The column is:
 * - for a summary-tier session, what the laptop said (`titled`, payload 6), else (an older client) whether it has a
 *   prompt, the title's usual source;
 * - for the other tiers, whether the title sent is not empty, as the laptop's rule reads its own.
 * The list's trigger function is written again with it (migration 10's, one column more), and the list rebuilt whole.
 * Shipped: never edit this text, add a migration.
 */
export const TITLED = (row: string) => `case when ${row}tier = 'summary'
      then coalesce((${row}body->>'titled')::boolean, (${row}body->>'prompts')::int > 0, false)
      else coalesce(${row}title, '') <> '' end`;

export const TITLED_MIGRATION = `
  alter table session_list add column titled boolean not null default false;
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
        (new.body->'time'->>'idleMs')::float8, ${TITLED('new.')});
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
      ${TITLED('')}
    from sessions;`;
