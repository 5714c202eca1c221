import type Database from 'better-sqlite3';
import { registerDocText } from './doc-text.js';
import { COMPACT_SCHEMA, RESET_DATA_COMPACT } from './schema-compact.js';
import { HEADER_SCHEMA } from './schema-header.js';
import { HOMES_SCHEMA } from './schema-homes.js';
import { PAYLOADS_SCHEMA, RESET_DATA_PAYLOADS } from './schema-payloads.js';
import { RESET_DATA_STRINGS, STRINGS_SCHEMA } from './schema-strings.js';
import { SCHEMA_VERSION } from './schema-version.js';

/**
 * Versioned schema migrations (`PRAGMA user_version`). Each entry upgrades from version `i` to `i + 1`.
 * The index is a cache of the transcripts: a migration may drop everything and let the next refresh re-read.
 */
/**
 * Drop everything derived from transcripts (kept: the schema and the archive). The next refresh reads every file
 * again, from disk or, for files that are gone, from the archive.
 */
const RESET_DATA = `
  INSERT INTO docs_fts(docs_fts) VALUES ('delete-all');
  DROP TRIGGER docs_ad;
  DELETE FROM docs;
  CREATE TRIGGER docs_ad AFTER DELETE ON docs BEGIN
    INSERT INTO docs_fts(docs_fts, rowid, body) VALUES ('delete', old.id, doc_text(old.body));
  END;
  DELETE FROM records; DELETE FROM titles; DELETE FROM calls; DELETE FROM results; DELETE FROM issues;
  DELETE FROM call_facts; DELETE FROM sessions; DELETE FROM files;
`;

/** RESET_DATA for the schema from version 8 on: the FTS index is contentless (its rows are deleted by rowid). */
const RESET_DATA_8 = `
  DELETE FROM docs; INSERT INTO docs_fts(docs_fts) VALUES ('delete-all');
  DELETE FROM records; DELETE FROM titles; DELETE FROM calls; DELETE FROM results; DELETE FROM issues;
  DELETE FROM call_facts; DELETE FROM sessions; DELETE FROM files; DELETE FROM responses;
`;

const migrations: readonly string[] = [
  // 1: initial schema.
  `
  CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    project_dir TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('main', 'subagent')),
    session_id TEXT NOT NULL,
    agent_id TEXT,
    meta_path TEXT,
    size INTEGER NOT NULL DEFAULT 0,
    mtime_ms REAL NOT NULL DEFAULT 0,
    ino INTEGER NOT NULL DEFAULT 0,
    parsed_offset INTEGER NOT NULL DEFAULT 0,
    next_line INTEGER NOT NULL DEFAULT 1,
    records INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX files_session ON files(session_id);

  -- Chain records (user/assistant/system/attachment/progress), one row per line.
  CREATE TABLE records (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    kind TEXT NOT NULL,
    uuid TEXT,
    ts TEXT,
    ts_ms REAL,
    cwd TEXT,
    version TEXT,
    git_branch TEXT,
    model TEXT,
    message_id TEXT,
    is_sidechain INTEGER NOT NULL DEFAULT 0,
    is_synthetic INTEGER NOT NULL DEFAULT 0,
    is_prompt INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cache_creation_tokens INTEGER,
    cache_read_tokens INTEGER,
    PRIMARY KEY (file_id, line)
  ) WITHOUT ROWID;
  CREATE INDEX records_uuid ON records(uuid);

  -- Titles: custom-title, ai-title, summary (with its leaf uuid).
  CREATE TABLE titles (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    source TEXT NOT NULL,
    title TEXT NOT NULL,
    leaf_uuid TEXT,
    PRIMARY KEY (file_id, line)
  ) WITHOUT ROWID;

  -- Every tool_use block occurrence (first per file).
  CREATE TABLE calls (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    tool_use_id TEXT NOT NULL,
    line INTEGER NOT NULL,
    name TEXT NOT NULL,
    input TEXT,
    ts TEXT,
    ts_ms REAL,
    message_id TEXT,
    agent_id TEXT,
    PRIMARY KEY (file_id, tool_use_id)
  );
  CREATE INDEX calls_id ON calls(tool_use_id);

  -- Every tool_result block occurrence (first per file).
  CREATE TABLE results (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    tool_use_id TEXT NOT NULL,
    line INTEGER NOT NULL,
    uuid TEXT,
    ts TEXT,
    is_error INTEGER NOT NULL,
    content TEXT NOT NULL,
    tool_use_result TEXT,
    PRIMARY KEY (file_id, tool_use_id)
  );
  CREATE INDEX results_id ON results(tool_use_id);

  -- One row per unique tool_use id: its first call joined with its first result, classified by core.
  CREATE TABLE call_facts (
    tool_use_id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    file_id INTEGER NOT NULL,
    line INTEGER NOT NULL,
    name TEXT NOT NULL,
    canonical_name TEXT NOT NULL,
    ts TEXT,
    ts_ms REAL,
    agent_id TEXT,
    has_result INTEGER NOT NULL,
    is_error INTEGER NOT NULL,
    category TEXT,
    severity TEXT,
    error_message TEXT,
    exit_code INTEGER,
    duration_ms REAL,
    summary TEXT NOT NULL
  );
  CREATE INDEX call_facts_session ON call_facts(session_id);
  CREATE INDEX call_facts_name ON call_facts(name);

  CREATE TABLE issues (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    code TEXT NOT NULL,
    message TEXT NOT NULL
  );
  CREATE INDEX issues_file ON issues(file_id);

  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    project_dir TEXT NOT NULL,
    project_path TEXT,
    title TEXT,
    title_source TEXT,
    started_at TEXT,
    ended_at TEXT,
    started_ms REAL,
    ended_ms REAL,
    prompts INTEGER NOT NULL DEFAULT 0,
    messages INTEGER NOT NULL DEFAULT 0,
    tool_calls INTEGER NOT NULL DEFAULT 0,
    errors INTEGER NOT NULL DEFAULT 0,
    expected_errors INTEGER NOT NULL DEFAULT 0,
    versions TEXT NOT NULL DEFAULT '[]',
    models TEXT NOT NULL DEFAULT '[]',
    git_branch TEXT,
    issues INTEGER NOT NULL DEFAULT 0,
    usage TEXT NOT NULL DEFAULT '{}'
  );

  -- Searchable text: prompts, assistant text, thinking, tool inputs and outputs.
  CREATE TABLE docs (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    ts TEXT,
    ts_ms REAL,
    kind TEXT NOT NULL,
    tool TEXT,
    call_id TEXT,
    agent_id TEXT,
    body TEXT NOT NULL
  );
  CREATE INDEX docs_file ON docs(file_id);
  CREATE VIRTUAL TABLE docs_fts USING fts5(body, content='docs', content_rowid='id', tokenize='unicode61');
  CREATE TRIGGER docs_ai AFTER INSERT ON docs BEGIN
    INSERT INTO docs_fts(rowid, body) VALUES (new.id, new.body);
  END;
  CREATE TRIGGER docs_ad AFTER DELETE ON docs BEGIN
    INSERT INTO docs_fts(docs_fts, rowid, body) VALUES ('delete', old.id, old.body);
  END;
  `,
  // 2: look up a call's output documents by call id (filling in the tool name when the call comes later);
  // slash-command lines as title candidates. Stored data is dropped so the next refresh re-reads every file.
  `
  CREATE INDEX docs_call ON docs(call_id) WHERE call_id IS NOT NULL;
  ${RESET_DATA}
  `,
  // 3: a fingerprint of each file (first bytes, bytes before the offset), to notice a rewrite in place.
  `
  ALTER TABLE files ADD COLUMN tail TEXT NOT NULL DEFAULT '';
  ${RESET_DATA}
  `,
  // 4: a session is its project folder plus its id (files.session_id, sessions.id and call_facts.session_id hold
  // that key; sessions.session_id the plain id); when a file last grew while watched; records without uuid,
  // glued lines, tool_use blocks without id and the one first-prompt title rule change what is extracted.
  `
  ALTER TABLE sessions ADD COLUMN session_id TEXT NOT NULL DEFAULT '';
  CREATE INDEX sessions_session_id ON sessions(session_id);
  ALTER TABLE files ADD COLUMN appended_ms REAL;
  ${RESET_DATA}
  `,
  // 5: usage and time. Records keep their request id and 1-hour cache writes; responses holds each API response
  // of a session once (core's dedupe), sessions their usage per model, thread and tier, and their time partition.
  `
  ALTER TABLE records ADD COLUMN request_id TEXT;
  ALTER TABLE records ADD COLUMN cache_1h_tokens INTEGER;
  CREATE TABLE responses (
    session_id TEXT NOT NULL,
    key TEXT NOT NULL,
    message_id TEXT,
    agent_id TEXT,
    model TEXT NOT NULL,
    ts_ms REAL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cache_creation_tokens INTEGER NOT NULL,
    cache_1h_tokens INTEGER NOT NULL,
    cache_read_tokens INTEGER NOT NULL,
    PRIMARY KEY (session_id, key)
  ) WITHOUT ROWID;
  CREATE INDEX responses_ts ON responses(ts_ms);
  ALTER TABLE sessions ADD COLUMN usage_detail TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE sessions ADD COLUMN time TEXT;
  ${RESET_DATA}
  DELETE FROM responses;
  `,
  // 6: the archive (see archive.ts): compressed transcript bytes in chunks, and what is known of each archived file,
  // so that a session outlives its files. Not derived data: RESET_DATA keeps it, and no migration may drop it.
  // `files.archived`: the file is gone from disk and is read from the archive. `settings`: user choices.
  `
  CREATE TABLE archive_files (
    path TEXT PRIMARY KEY,
    project_dir TEXT NOT NULL,
    role TEXT NOT NULL,
    session_id TEXT,
    agent_id TEXT,
    meta_path TEXT,
    file_size INTEGER NOT NULL,
    mtime_ms REAL NOT NULL,
    ino INTEGER NOT NULL,
    archived_bytes INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE archive_chunks (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    offset INTEGER NOT NULL,
    length INTEGER NOT NULL,
    data BLOB NOT NULL,
    UNIQUE (path, offset)
  );
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  ALTER TABLE files ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
  `,
  // 7: searchable text stored once, compressed (doc-text.ts): docs.body holds deflate-raw bytes or short plain text,
  // the docs_text view decompresses it, and docs_fts takes the view as external content. The importer writes the
  // FTS rows itself (it has the plain text at hand). Derived data is read again.
  `
  DROP TRIGGER docs_ai;
  DROP TRIGGER docs_ad;
  DROP TABLE docs_fts;
  DROP TABLE docs;
  CREATE TABLE docs (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    ts TEXT,
    ts_ms REAL,
    kind TEXT NOT NULL,
    tool TEXT,
    call_id TEXT,
    agent_id TEXT,
    body BLOB NOT NULL
  );
  CREATE INDEX docs_file ON docs(file_id);
  CREATE INDEX docs_call ON docs(call_id) WHERE call_id IS NOT NULL;
  CREATE VIEW docs_text AS SELECT id, doc_text(body) AS body FROM docs;
  CREATE VIRTUAL TABLE docs_fts USING fts5(body, content='docs_text', content_rowid='id', tokenize='unicode61');
  CREATE TRIGGER docs_ad AFTER DELETE ON docs BEGIN
    INSERT INTO docs_fts(docs_fts, rowid, body) VALUES ('delete', old.id, doc_text(old.body));
  END;
  -- Per-tool statistics over all calls read this index only (counts, categories, durations in order).
  CREATE INDEX call_facts_stats ON call_facts(name, duration_ms, has_result, is_error, severity, category);
  ${RESET_DATA}
  DELETE FROM responses;
  `,
  // 8: every file and session carries the agent that wrote it (issue 14); rows indexed before were all Claude Code's.
  // An archived file's agent is its `files` row's (the archive tables stay as they are).
  `
  ALTER TABLE files ADD COLUMN agent TEXT NOT NULL DEFAULT 'claude';
  ALTER TABLE sessions ADD COLUMN agent TEXT NOT NULL DEFAULT 'claude';
  CREATE INDEX sessions_agent ON sessions(agent);
  `,
  // 9: searchable text is stored nowhere in the index: docs_fts is contentless, and a document keeps its record's
  // byte offset and its part number, so search reads the text back from the transcript (file or archive) to cut a
  // snippet (doc-parts.ts, doc-snippet.ts). Tool inputs and results are stored deflated when long (packed-json.ts).
  `
  DROP TRIGGER docs_ad;
  DROP TABLE docs_fts;
  DROP VIEW docs_text;
  DROP TABLE docs;
  CREATE TABLE docs (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    offset INTEGER NOT NULL,
    part INTEGER NOT NULL,
    ts TEXT,
    ts_ms REAL,
    kind TEXT NOT NULL,
    tool TEXT,
    call_id TEXT,
    agent_id TEXT
  );
  CREATE INDEX docs_file ON docs(file_id);
  CREATE INDEX docs_call ON docs(call_id) WHERE call_id IS NOT NULL;
  CREATE VIRTUAL TABLE docs_fts USING fts5(body, content='', contentless_delete=1, tokenize='unicode61');
  CREATE TRIGGER docs_ad AFTER DELETE ON docs BEGIN
    DELETE FROM docs_fts WHERE rowid = old.id;
  END;
  ${RESET_DATA_8}
  `,
  // 10: reasoning output tokens (Codex reasoning, Gemini thoughts) per record and per response: the part of the
  // output tokens spent on reasoning, shown on its own and never added to the output again. Derived data is read again.
  `
  ALTER TABLE records ADD COLUMN reasoning_tokens INTEGER;
  ALTER TABLE responses ADD COLUMN reasoning_tokens INTEGER NOT NULL DEFAULT 0;
  ${RESET_DATA_8}
  `,
  // 11: secret findings counted per file and rule (issue 12), never the secret itself; files are read again to fill them.
  `
  CREATE TABLE secret_counts (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    rule TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (file_id, rule)
  ) WITHOUT ROWID;
  ${RESET_DATA_8}
  `,
  // 12: time (issue 11): the requests the client wrote (Claude Code 2.1.x `api-request`: a wait on the model starts
  // there), each response's link to its request (`records.request_ref`), and what a synthetic message is
  // (`records.is_synthetic`: 1 an API error, 2 a note such as "No response requested."; neither is a model wait).
  // Derived data is read again (the archive stays).
  `
  CREATE TABLE requests (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    id TEXT NOT NULL,
    ts_ms REAL NOT NULL,
    agent_id TEXT,
    PRIMARY KEY (file_id, line)
  ) WITHOUT ROWID;
  ALTER TABLE records ADD COLUMN request_ref TEXT;
  ${RESET_DATA_8}
  DELETE FROM secret_counts;
  `,
  // A smaller index (issue 8), see schema-compact.ts: one entry, renumbered freely when branches merge. Derived data
  // is read again.
  `${COMPACT_SCHEMA}${RESET_DATA_COMPACT} DELETE FROM requests;`,
  // Repeated texts stored once (issue 8), see schema-strings.ts: one entry, renumbered freely when branches merge.
  // The rows are converted in place.
  STRINGS_SCHEMA,
  // The session header from the index (issue 8), see schema-header.ts: one entry, renumbered freely when branches
  // merge. Derived data is read again.
  HEADER_SCHEMA,
  // A call's facts belong to its agent home (see schema-homes.ts): one entry, renumbered freely when branches merge.
  // Derived data is read again.
  HOMES_SCHEMA,
  // The archive's sizes from an index (`archiveSize`, printed by every `index`): the sums read it alone instead of
  // every chunk's row, whose blob fills its page (115 → 3 ms at 1 GiB). Nothing is read again.
  'CREATE INDEX IF NOT EXISTS archive_chunk_sizes ON archive_chunks(length, length(data));',
  // Codex and Gemini shell commands that exited non-zero are failed calls (category exit-code), as Claude Code's Bash
  // ones: results' error flag and calls' facts change. Derived data is read again.
  RESET_DATA_STRINGS,
  // Codex titles and prompts: `<recommended_plugins>` and `<skill>` blocks are hidden context, and an IDE extension's
  // prompt is its "## My request for Codex:" part. Derived data is read again.
  RESET_DATA_STRINGS,
  // A Gemini MCP tool's own failure ("reported tool error") is an `other` error, no longer `api-error`: calls' facts
  // change. Derived data is read again.
  RESET_DATA_STRINGS,
  // A first-prompt title is cut at a word boundary and never through a secret (core's cutTitle): a secret crossing
  // the old cut kept its first part, which exports no longer recognised. Derived data is read again.
  RESET_DATA_STRINGS,
  // A Codex/Gemini shell command's exit 1 is read past quotes (`rg -n "a|b" src` is rg's "No matches found", no
  // longer a failed call), and a Codex IDE prompt's line keeps its prompt (the index stores a line's first row).
  // Derived data is read again.
  RESET_DATA_STRINGS,
  // CJK words are found inside text (cjk.ts): each Han, kana and Hangul character is a token of its own, and a query's
  // CJK word a phrase of them, which finds nothing in a run indexed whole. Result kinds: a Claude Code MCP tool's own
  // failure is an `other` error typed `mcp` with its server and tool, no longer `api-error`; a Gemini resume stub has
  // a `resume_stub` issue (lists leave its session out); Gemini's echo of an MCP response with an image is no
  // prompt; a Gemini replace that creates its file says so (`operation: 'create'`, its call summary); Codex
  // 0.34–0.63 responses keep their own usage (session time) and calls what their output reports. Derived data is read
  // again.
  RESET_DATA_STRINGS,
  // Tool inputs and results stored once, in the transcripts and their archive (see schema-payloads.ts): one entry,
  // renumbered freely when branches merge. Derived data is read again.
  PAYLOADS_SCHEMA,
  // Archive chunks name their codec (archive-codec.ts): those stored so far are brotli (0), new ones zstd (1) where it
  // loads. No archived byte is rewritten, nothing is read again.
  'ALTER TABLE archive_chunks ADD COLUMN codec INTEGER NOT NULL DEFAULT 0;',
  // The per-tool statistics read their index alone: it holds each call's file too (its session decides the scope),
  // so no call row is read (one project's statistics in a 1 GiB home, 70,000 calls: 121 → 29 ms). Nothing is read
  // again.
  `DROP INDEX IF EXISTS call_facts_stats;
   CREATE INDEX call_facts_stats ON calls(name, duration_ms, has_result, is_error, severity, category, file_id)
     WHERE has_result IS NOT NULL;`,
  // Versions kept beside a file (archive.ts, `keepVersion`): a transcript that shrank, was replaced or stopped parsing
  // keeps its last complete version as the file's archive (shown: `files.archived = 2`), and the copy on disk now is
  // archived beside it, its chunks under `versionKey(path)`. Not derived data: no migration may drop it.
  `CREATE TABLE archive_versions (
     path TEXT PRIMARY KEY,
     reason TEXT NOT NULL,
     file_size INTEGER NOT NULL,
     mtime_ms REAL NOT NULL,
     ino INTEGER NOT NULL,
     tail TEXT NOT NULL,
     kept_ms INTEGER NOT NULL
   );`,
];

/** Tables no migration may drop or empty: the archive (the only copy of transcripts Claude Code has deleted). */
export const ARCHIVE_TABLES = ['archive_files', 'archive_chunks', 'settings', 'archive_versions'] as const;

if (migrations.length !== SCHEMA_VERSION) {
  throw new Error(`schema-version.ts says ${SCHEMA_VERSION}, but schema.ts has ${migrations.length} migration steps`);
}

export { SCHEMA_VERSION };
/** The version the strings step (schema-strings.ts) upgrades to: its number changes when steps are added. */
export const STRINGS_VERSION = migrations.indexOf(STRINGS_SCHEMA) + 1;

/** Drop everything derived from transcripts, keeping the archive (what data-dropping migrations do). */
export function resetDerivedData(db: Database.Database): void {
  registerDocText(db);
  db.transaction(() => db.exec(RESET_DATA_PAYLOADS))();
}

export class NewerSchemaError extends Error {
  constructor(readonly version: number) {
    super(`index schema version ${version} is newer than this program's (${SCHEMA_VERSION})`);
  }
}

/** Bring the database to the current schema version. */
export function migrate(db: Database.Database, target: number = SCHEMA_VERSION): void {
  // The FTS delete trigger and the docs_text view call doc_text().
  registerDocText(db);
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new NewerSchemaError(current);
  }
  for (let version = current; version < target; version++) {
    const sql = migrations[version];
    if (sql === undefined) break;
    // Under the write lock, and only if no other process has applied this step meanwhile.
    db.exec('BEGIN IMMEDIATE');
    try {
      if ((db.pragma('user_version', { simple: true }) as number) === version) {
        db.exec(sql);
        db.pragma(`user_version = ${version + 1}`);
      }
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }
}
