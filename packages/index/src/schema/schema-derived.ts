/**
 * Every derived table of the index: what can be rebuilt from the transcripts (their files, or the archive for files
 * that are gone). The index is a cache of them: when `DERIVED_VERSION` (schema-version.ts) is not the database's,
 * these tables are dropped and created again from this DDL, empty, and the next refresh reads every file again
 * (schema.ts). So a change here is made in place and the version raised: there are no steps to write.
 *
 * The archive and the settings are not derived: schema-archive.ts keeps their append-only migrations.
 * docs/index.md describes every table and column.
 */
import { DEFAULT_AGENT } from '../agent-kind.js';
import { DOC_KINDS, KIND, RECORD_KINDS, TS, UUID } from './stored-values.js';

/**
 * A project folder's home in SQL: its parent folder, with its separator (`files.home`; a session's home is its
 * project folder's). Sessions and calls of one home are one history: their copies in another home are that home's.
 */
export const HOME_OF = (column: string) => `rtrim(${column}, replace(replace(${column}, '/', ''), '\\', ''))`;

/** Files read and how far (`files`), the texts repeated on many rows stored once (`strings`). */
const FILES = `
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
    records INTEGER NOT NULL DEFAULT 0,
    tail TEXT NOT NULL DEFAULT '',
    appended_ms REAL,
    archived INTEGER NOT NULL DEFAULT 0,
    agent TEXT NOT NULL DEFAULT '${DEFAULT_AGENT}',
    unknown_records INTEGER NOT NULL DEFAULT 0,
    headless INTEGER NOT NULL DEFAULT 0,
    home TEXT GENERATED ALWAYS AS (${HOME_OF('project_dir')}) VIRTUAL
  );
  CREATE INDEX files_session ON files(session_id);
  -- Whether an agent's files are in more than one home (read/home-copies.ts): each agent's first and last home, seeks.
  CREATE INDEX files_home ON files(agent, home);

  CREATE TABLE strings (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
`;

/** One row per transcript line (its first record), the requests a client wrote, titles, problems, secrets. */
const RECORDS = `
  CREATE TABLE records (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    kind_raw TEXT NOT NULL,
    uuid_raw TEXT,
    ts_text TEXT,
    ts_ms REAL,
    cwd_ref INTEGER,
    version_ref INTEGER,
    git_branch_ref INTEGER,
    model_ref INTEGER,
    message_id TEXT,
    is_sidechain INTEGER NOT NULL DEFAULT 0,
    is_synthetic INTEGER NOT NULL DEFAULT 0,
    shown INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cache_creation_tokens INTEGER,
    cache_read_tokens INTEGER,
    request_id TEXT,
    cache_1h_tokens INTEGER,
    reasoning_tokens INTEGER,
    request_ref TEXT,
    parent_raw TEXT,
    prompt_text TEXT,
    sig TEXT,
    extra_results INTEGER,
    copy_of TEXT,
    -- Core's Usage.outputAtLeast: the least output the record's content took, set only when output_tokens is below
    -- it (the stream's first count was written, not the response's).
    output_at_least INTEGER,
    -- Core's Usage.turnsUnrecorded: responses the client wrote into this record without their usage (Gemini 0.20).
    turns_unrecorded INTEGER,
    ts ${TS} VIRTUAL,
    uuid ${UUID} VIRTUAL,
    kind ${KIND(RECORD_KINDS)} VIRTUAL,
    PRIMARY KEY (file_id, line)
  ) WITHOUT ROWID;
  -- A subagent's records copied into this file that are its thread (core's EmbeddedThreads: its file is not in the
  -- session): few, and always looked up by the file holding them (a seek, never a scan of every copy row).
  CREATE INDEX records_copies ON records(file_id, copy_of) WHERE copy_of IS NOT NULL;
  -- A file's prompts of its main thread by uuid (few rows): which of a resume's prompts an earlier session holds
  -- (session-usage.ts \`copiedPrompts\`), a seek per file rather than a read of every record of it.
  CREATE INDEX records_prompts ON records(file_id, uuid_raw) WHERE shown = 1 AND is_sidechain = 0;

  CREATE TABLE requests (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    id TEXT NOT NULL,
    ts_ms REAL NOT NULL,
    agent_id TEXT,
    PRIMARY KEY (file_id, line)
  ) WITHOUT ROWID;

  CREATE TABLE titles (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    source TEXT NOT NULL,
    title TEXT NOT NULL,
    leaf_uuid TEXT,
    PRIMARY KEY (file_id, line)
  ) WITHOUT ROWID;

  CREATE TABLE issues (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    code TEXT NOT NULL,
    message TEXT NOT NULL
  );
  CREATE INDEX issues_file ON issues(file_id);

  CREATE TABLE secret_counts (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    rule TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (file_id, rule)
  ) WITHOUT ROWID;
`;

/**
 * Tool calls with their facts, and tool results. A call's fact (call-fact.ts) is stored on the row of its first
 * occurrence in its agent home; the fact columns are NULL on the other rows (`has_result IS NOT NULL`: the row holds
 * its call's fact).
 */
const CALLS = `
  CREATE TABLE calls (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    tool_use_id TEXT NOT NULL,
    line INTEGER NOT NULL,
    name TEXT NOT NULL,
    offset INTEGER NOT NULL,
    ts_text TEXT,
    ts_ms REAL,
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
    -- The files the call touched (core's filesTouchedBy), as JSON [[path, changed 0/1], …], a path inside the folder
    -- the call ran in relative to it (read/touched-files.ts joins it back); NULL: none.
    touched TEXT,
    PRIMARY KEY (tool_use_id, file_id)
  );
  CREATE INDEX calls_file ON calls(file_id);
  -- The per-tool statistics read this index alone (counts, categories, durations in order; the file for the scope).
  CREATE INDEX calls_stats ON calls(name, duration_ms, has_result, is_error, severity, category, file_id)
    WHERE has_result IS NOT NULL;

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

  -- The calls a PreToolUse hook ran on (core's preToolHookCallOf), once per file however many hooks ran: a failure
  -- with no exit is the hook's block. Few rows: read by call, cleared by file without an index of its own.
  CREATE TABLE pre_hooks (
    tool_use_id TEXT NOT NULL,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    PRIMARY KEY (tool_use_id, file_id)
  ) WITHOUT ROWID;
`;

/** Sessions as lists show them, and each API response of a session once (its usage). */
const SESSIONS = `
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
    -- requests the agent gave up on, and failed attempts it retried (core's \`requestFailureOf\`)
    api_errors INTEGER NOT NULL DEFAULT 0,
    api_retries INTEGER NOT NULL DEFAULT 0,
    versions TEXT NOT NULL DEFAULT '[]',
    models TEXT NOT NULL DEFAULT '[]',
    git_branch TEXT,
    issues INTEGER NOT NULL DEFAULT 0,
    session_id TEXT NOT NULL DEFAULT '',
    usage_detail TEXT NOT NULL DEFAULT '[]',
    time TEXT,
    -- A fork's or resume's: the time of the last response it copied from an earlier session (another id), after
    -- which its own records start and its \`time\` counts (session-usage.ts \`settle\`); null when it copied none.
    own_from_ms REAL,
    -- What of \`prompts\` and \`messages\` a fork or resume copied from sessions that own it (their prompts' uuids,
    -- their responses), and the models only those copies name: the list counts a session's own (session-usage.ts
    -- \`settle\`; read/session-summaries.ts). Its whole transcript's counts stay above (a copy is still listed).
    copied_prompts INTEGER NOT NULL DEFAULT 0,
    copied_responses INTEGER NOT NULL DEFAULT 0,
    copied_models TEXT NOT NULL DEFAULT '[]',
    agent TEXT NOT NULL DEFAULT '${DEFAULT_AGENT}',
    subagents INTEGER NOT NULL DEFAULT 0,
    warmups INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX sessions_session_id ON sessions(session_id);
  CREATE INDEX sessions_agent ON sessions(agent);

  CREATE TABLE responses (
    session_ref INTEGER NOT NULL,
    key TEXT NOT NULL,
    -- The message id (no type: no conversion of what is stored): the integer 1 when it is the key (most responses:
    -- core's responseKeyOf), stored once; else its text, or NULL without one. \`message_id\` gives it back.
    message_raw,
    agent_id TEXT,
    model_ref INTEGER NOT NULL,
    ts_ms REAL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cache_creation_tokens INTEGER NOT NULL,
    cache_1h_tokens INTEGER NOT NULL,
    cache_read_tokens INTEGER NOT NULL,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    -- 1: the response recorded no input (core's Usage.inputUnrecorded), its input_tokens 0 but unknown.
    input_unrecorded INTEGER NOT NULL DEFAULT 0,
    -- 1: no record of the response has its final output count (core's ResponseUsage.outputUnrecorded).
    output_unrecorded INTEGER NOT NULL DEFAULT 0,
    -- the last characters of its request id (REQUEST_TAIL), when its records have one: another session's response of
    -- the same id and another request is not a copy of it (core's responseKeyOf); the whole id is in its records
    request_tail TEXT,
    message_id TEXT GENERATED ALWAYS AS
      (CASE WHEN typeof(message_raw) = 'integer' THEN key ELSE message_raw END) VIRTUAL,
    PRIMARY KEY (session_ref, key)
  ) WITHOUT ROWID;
  -- The sessions holding one response (a resume's copies): which one owns it (session-usage.ts settle).
  CREATE INDEX responses_key ON responses(key);
`;

/**
 * Searchable text: where each document is (its record's byte offset and part), and a contentless full-text index
 * whose rows have the documents' ids. The writer deletes a file's full-text rows before its documents.
 */
const DOCS = `
  CREATE TABLE docs (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    offset INTEGER NOT NULL,
    part INTEGER NOT NULL,
    ts_text TEXT,
    ts_ms REAL,
    kind_raw TEXT NOT NULL,
    tool TEXT,
    call_id TEXT,
    agent_id TEXT,
    ts ${TS} VIRTUAL,
    kind ${KIND(DOC_KINDS)} VIRTUAL
  );
  CREATE INDEX docs_file ON docs(file_id);
  -- Only the documents still waiting for their tool's name (a tool output read before its call).
  CREATE INDEX docs_call ON docs(call_id) WHERE call_id IS NOT NULL AND tool IS NULL;
  CREATE VIRTUAL TABLE docs_fts USING fts5(body, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 2 categories 'L* N* Co M*'");
`;

/**
 * The warm path's freshness records and stored answers (warm.ts), and the version of this DDL. A rowid table: its
 * values are large (a freshness record, a whole `sessions --json` text), and a WITHOUT ROWID table's search for a
 * key reads the whole of every overflowing row it compares the key with.
 */
const STATE = `
  CREATE TABLE warm_state (
    key TEXT PRIMARY KEY,
    generation INTEGER NOT NULL,
    value TEXT NOT NULL
  );

  CREATE TABLE derived_version (version INTEGER NOT NULL);

  -- The sessions an agent's file came into (lost = 0) or left (lost = 1) whose files holding copies are still to be
  -- read again (copy-reads.ts): written in the batch that changed them, so a refresh stopped before it read them
  -- leaves them to the next.
  CREATE TABLE copy_reads (session_id TEXT PRIMARY KEY, lost INTEGER NOT NULL) WITHOUT ROWID;
`;

/** The DDL of every derived table, in one string (`derived_version` is left empty: schema.ts fills it). */
export const DERIVED_SCHEMA = [FILES, RECORDS, CALLS, SESSIONS, DOCS, STATE].join('');

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
  'touched',
] as const;

/** Store a text in `strings` unless it is there (a statement of its own: no conflict policy around it). */
export const INTERN_STRING = 'INSERT OR IGNORE INTO strings (text) VALUES (?)';

/** The derived tables whose rows are one file's (`file_id`): what reading a file again from byte 0 clears. */
export const FILE_TABLES = [
  'records',
  'requests',
  'titles',
  'calls',
  'results',
  'pre_hooks',
  'issues',
  'docs',
  'secret_counts',
] as const;
