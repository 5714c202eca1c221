/**
 * Schema step "header" (issue 8: a session's header without reading its transcript, see session-header.ts). One
 * migration entry, kept in its own file so that its number can change when branches merge.
 *
 * - A record says whether it shows in the timeline (`shown`: 1 a prompt, 2 another shown event); a sidechain record
 *   keeps its parent (`parent_raw`: in-file subagent runs); a subagent's user message keeps its text (`prompt_text`:
 *   what links a run to the call that started it); a placeholder uuid keeps what tells its records apart (`sig`); a
 *   user record counts the result blocks pairing reports (`extra_results`: no id, or an id already answered in the
 *   file). The columns go to `record_rows`, and the `records` view and its triggers are made again with them.
 * - A file counts its records of unknown types (`unknown_records`).
 * - A call fact keeps the background task or agent its result started (`task_id`) and the subagent its result names
 *   (`agent_ref`).
 *
 * Derived data is read again (the archive stays).
 */
import { RECORD_TAIL, RESET_DATA_STRINGS, recordsView } from './schema-strings.js';

/** The record columns this step adds, after the strings step's. */
export const HEADER_RECORD_COLUMNS = ['shown', 'parent_raw', 'prompt_text', 'sig', 'extra_results'] as const;

export const HEADER_SCHEMA = `
  ALTER TABLE record_rows ADD COLUMN shown INTEGER;
  ALTER TABLE record_rows ADD COLUMN parent_raw TEXT;
  ALTER TABLE record_rows ADD COLUMN prompt_text TEXT;
  ALTER TABLE record_rows ADD COLUMN sig TEXT;
  ALTER TABLE record_rows ADD COLUMN extra_results INTEGER;
  DROP VIEW records;
  ${recordsView([...RECORD_TAIL, ...HEADER_RECORD_COLUMNS])}
  ALTER TABLE files ADD COLUMN unknown_records INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE call_fact_rows ADD COLUMN task_id TEXT;
  ALTER TABLE call_fact_rows ADD COLUMN agent_ref TEXT;
  DROP VIEW call_facts;
  CREATE VIEW call_facts AS
    SELECT c.tool_use_id, f.session_id, c.file_id, c.line, c.name, c.canonical_name, c.ts, c.ts_ms, c.agent_id,
      c.has_result, c.is_error, c.category, c.severity, c.error_message, c.exit_code, c.duration_ms, c.summary,
      c.task_id, c.agent_ref
    FROM call_fact_rows c LEFT JOIN files f ON f.id = c.file_id;
  ${RESET_DATA_STRINGS}
`;
