/**
 * Schema step "payloads": tool inputs and results are stored once, in the transcripts and their archive
 * (call-payloads.ts). `calls` and `results` keep where each one is (its record's byte `offset`) instead of a second,
 * deflated copy of what it says; the fact rows keep the two things the session header reads of a call that starts a
 * subagent (its prompt and agent type). One migration entry, kept in its own file so that its number can change when
 * branches merge.
 *
 * Derived data is read again (the archive stays).
 */
import { TS, UUID } from './schema-compact.js';
import { RESET_DATA_STRINGS } from './schema-strings.js';

export const PAYLOADS_SCHEMA = `
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
    PRIMARY KEY (tool_use_id, file_id)
  );
  CREATE INDEX calls_file ON calls(file_id);
  DROP TABLE results;
  CREATE TABLE results (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    tool_use_id TEXT NOT NULL,
    line INTEGER NOT NULL,
    uuid_raw TEXT,
    ts_text TEXT,
    ts_ms REAL,
    is_error INTEGER NOT NULL,
    offset INTEGER NOT NULL,
    uuid ${UUID} VIRTUAL,
    ts ${TS} VIRTUAL,
    PRIMARY KEY (tool_use_id, file_id)
  );
  CREATE INDEX results_file ON results(file_id);
  ALTER TABLE call_fact_rows ADD COLUMN subagent_prompt TEXT;
  ALTER TABLE call_fact_rows ADD COLUMN subagent_type TEXT;
  ${RESET_DATA_STRINGS}
`;
