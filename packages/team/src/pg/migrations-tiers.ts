/**
 * Migrations 13 to 15 (migrations.ts lists them): what a person shares stays theirs and at its tier.
 */

/**
 * 13. Payload versions 1 and 2 sent each subagent's whole prompt at the metadata tier, which promises only
 * descriptions: what was stored so is told as version 3 tells it (subagent-wire.ts), by its call's stored summary.
 */
export const SUBAGENT_PROMPTS_MIGRATION = `
  update sessions s set body = jsonb_set(s.body, '{header,subagents}', coalesce((
    select jsonb_agg((x - 'prompt') || jsonb_build_object('description', (
      select c.summary from calls c
      where c.person_id = s.person_id and c.uid = s.uid and c.call_id = x->>'parentCallId' limit 1)) order by o)
    from jsonb_array_elements(s.body->'header'->'subagents') with ordinality t(x, o)), '[]'::jsonb))
  where s.tier = 'metadata' and jsonb_typeof(s.body->'header'->'subagents') = 'array'
    and jsonb_array_length(s.body->'header'->'subagents') > 0`;

/**
 * 14. Reads find a session by its uid alone. A uid is an HMAC of its person's salt, so two people hold the same one
 * only when one pushed the other's (copied from the dashboard). Which is whose cannot be told here (a session's
 * pushed_at is its last store, not its first): every row of such a uid goes, and its owner's laptop, whose manifest
 * then wants it, pushes it again.
 */
export const UNIQUE_UID_MIGRATION = `
  delete from sessions s using sessions o where o.uid = s.uid and o.person_id <> s.person_id;
  create unique index sessions_uid_key on sessions (uid);`;

/** 15. Who uploaded each chunk (chunk-gc.ts): erasing a person takes the chunks they uploaded no session refers to. */
export const CHUNK_UPLOADER_MIGRATION = `
  alter table chunks add column uploaded_by bigint references people(id) on delete set null;
  create index chunks_uploaded_by on chunks (uploaded_by) where uploaded_by is not null;`;
