/**
 * Schema step "homes": a call's facts belong to the agent home it occurs in, not to the whole index. One migration
 * entry, kept in its own file so that its number can change when branches merge.
 *
 * A fork or resume copies earlier calls into a new transcript, of the same project folder or (a session resumed
 * from another worktree, a checkpoint copy) of another one of the same home; the first occurrence owns them, so
 * that a call counts once. The same transcripts in two homes (a second clone's sample sessions, a backup of
 * `~/.claude` indexed beside the live one) are two histories: each home now owns its own copy, so that every
 * session counts its calls wherever another copy lives.
 *
 * - `files.home`: the folder that holds a file's project folder (a Claude home's `projects/`, a Codex home, Gemini's
 *   `tmp/`), computed from `project_dir` (up to its last separator).
 * - The fact rows are keyed by call id and owning file.
 *
 * Derived data is read again (the archive stays).
 */
import { TS } from './schema-compact.js';
import { RESET_DATA_STRINGS } from './schema-strings.js';

export const HOMES_SCHEMA = `
  ALTER TABLE files ADD COLUMN home TEXT GENERATED ALWAYS AS
    (rtrim(project_dir, replace(replace(project_dir, '/', ''), '\\', ''))) VIRTUAL;
  DROP VIEW call_facts;
  DROP TABLE call_fact_rows;
  CREATE TABLE call_fact_rows (
    tool_use_id TEXT NOT NULL,
    file_id INTEGER NOT NULL,
    line INTEGER NOT NULL,
    name TEXT NOT NULL,
    canonical_name TEXT NOT NULL,
    ts_text TEXT,
    ts_ms REAL,
    agent_id TEXT,
    has_result INTEGER NOT NULL,
    is_error INTEGER NOT NULL,
    category TEXT,
    severity TEXT,
    error_message TEXT,
    exit_code INTEGER,
    duration_ms REAL,
    summary TEXT NOT NULL,
    ts ${TS} VIRTUAL,
    task_id TEXT,
    agent_ref TEXT,
    PRIMARY KEY (tool_use_id, file_id)
  );
  CREATE INDEX call_fact_rows_file ON call_fact_rows(file_id);
  -- Per-tool statistics over all calls read this index only (counts, categories, durations in order).
  CREATE INDEX call_facts_stats ON call_fact_rows(name, duration_ms, has_result, is_error, severity, category);
  CREATE VIEW call_facts AS
    SELECT c.tool_use_id, f.session_id, c.file_id, c.line, c.name, c.canonical_name, c.ts, c.ts_ms, c.agent_id,
      c.has_result, c.is_error, c.category, c.severity, c.error_message, c.exit_code, c.duration_ms, c.summary,
      c.task_id, c.agent_ref
    FROM call_fact_rows c LEFT JOIN files f ON f.id = c.file_id;
  ${RESET_DATA_STRINGS}
`;
