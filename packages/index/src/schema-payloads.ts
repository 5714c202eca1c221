/**
 * Schema step "payloads": tool inputs and results are stored once, in the transcripts and their archive
 * (call-payloads.ts). One migration entry, kept in its own file so that its number can change when branches merge.
 *
 * - `calls` and `results` keep where each one is (its record's byte `offset`) instead of a second, deflated copy of
 *   what it says; a result row no longer repeats its record's uuid and error flag (its fact has them).
 * - A call's fact (call-fact.ts) is stored on the call's own row, the first occurrence in its agent home (the fact
 *   columns are NULL on the other rows): no second table repeating its id, file, line, name and time, and no second
 *   index of ids. It keeps the two things the session header reads of a call that starts a subagent (its prompt and
 *   agent type).
 *
 * Derived data is read again (the archive stays).
 */
import { TS } from './schema-compact.js';

/** RESET_DATA from this step on: `call_fact_rows` is gone (facts are columns of `calls`). */
export const RESET_DATA_PAYLOADS = `
  DELETE FROM docs; INSERT INTO docs_fts(docs_fts) VALUES ('delete-all');
  DELETE FROM record_rows; DELETE FROM titles; DELETE FROM calls; DELETE FROM results; DELETE FROM issues;
  DELETE FROM sessions; DELETE FROM files; DELETE FROM response_rows;
  DELETE FROM secret_counts; DELETE FROM requests; DELETE FROM strings;
`;

/** The fact columns of `calls`, each NULL on a row that does not hold its call's fact. */
export const FACT_COLUMNS = [
  'canonical_name',
  'has_result',
  'is_error',
  'category',
  'severity',
  'error_message',
  'exit_code',
  'duration_ms',
  'summary',
  'task_id',
  'agent_ref',
  'subagent_prompt',
  'subagent_type',
] as const;

export const PAYLOADS_SCHEMA = `
  DROP VIEW call_facts;
  DROP TABLE call_fact_rows;
  DROP TABLE calls;
  CREATE TABLE calls (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    tool_use_id TEXT NOT NULL,
    line INTEGER NOT NULL,
    name TEXT NOT NULL,
    offset INTEGER NOT NULL,
    ts_text TEXT,
    ts_ms REAL,
    message_id TEXT,
    agent_id TEXT,
    ts ${TS} VIRTUAL,
    canonical_name TEXT,
    has_result INTEGER,
    is_error INTEGER,
    category TEXT,
    severity TEXT,
    error_message TEXT,
    exit_code INTEGER,
    duration_ms REAL,
    summary TEXT,
    task_id TEXT,
    agent_ref TEXT,
    subagent_prompt TEXT,
    subagent_type TEXT,
    PRIMARY KEY (tool_use_id, file_id)
  );
  CREATE INDEX calls_file ON calls(file_id);
  -- Per-tool statistics over all calls read this index only (counts, categories, durations in order).
  CREATE INDEX call_facts_stats ON calls(name, duration_ms, has_result, is_error, severity, category)
    WHERE has_result IS NOT NULL;
  CREATE VIEW call_facts AS
    SELECT c.tool_use_id, f.session_id, c.file_id, c.line, c.name, c.canonical_name, c.ts, c.ts_ms, c.agent_id,
      c.has_result, c.is_error, c.category, c.severity, c.error_message, c.exit_code, c.duration_ms, c.summary,
      c.task_id, c.agent_ref
    FROM calls c LEFT JOIN files f ON f.id = c.file_id WHERE c.has_result IS NOT NULL;
  DROP TABLE results;
  CREATE TABLE results (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    tool_use_id TEXT NOT NULL,
    line INTEGER NOT NULL,
    ts_text TEXT,
    ts_ms REAL,
    offset INTEGER NOT NULL,
    ts ${TS} VIRTUAL,
    PRIMARY KEY (tool_use_id, file_id)
  );
  CREATE INDEX results_file ON results(file_id);
  ${RESET_DATA_PAYLOADS}
`;
