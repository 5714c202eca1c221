/**
 * Schema step "compact" (issue 8: the index near the size of what it must hold). One migration entry, kept in its own
 * file so that its number can change when branches merge. Derived data only: the archive tables are not touched.
 *
 * - `call_facts` no longer repeats the session key (a long `<projectDir>/<id>` text) in every row and in an index of
 *   its own: a fact's session is its file's (`call_fact_rows.file_id`), and the `call_facts` view gives it back under
 *   the old name and columns, so readers are unchanged. Writers write `call_fact_rows`.
 * - Indexes no query needs are dropped: `responses_ts` (the usage query reads every response of its sessions and
 *   sorts them anyway), `records_uuid` (a uuid is looked up within one session's records only, which the records'
 *   primary key reaches through `files_session`) and `call_facts_name` (`call_facts_stats` starts with the name).
 * - `docs_call` holds only the documents still waiting for their tool's name (a tool output read before its call),
 *   the one lookup it serves; every other document left it when its tool was known.
 * - A timestamp is stored once: the text column `ts` of records, calls, results, docs and call facts is now computed
 *   from `ts_ms`, and `ts_text` keeps the text as written only when it is not the ISO form of `ts_ms` (`storedTs`).
 * - `calls` and `results` are keyed by (tool_use_id, file_id) instead of (file_id, tool_use_id): the key serves the
 *   lookups by id, so `calls_id` and `results_id` (a second copy of every id) are gone; `calls_file` and
 *   `results_file` (integers) serve the lookups by file.
 * - A record uuid in its canonical form (lowercase) is stored as its 16 bytes (`uuid_raw`), a record's or document's
 *   kind as a small number (`kind_raw`); `uuid` and `kind` are computed back, so readers see the same texts.
 * - Tool inputs and results are deflated with a preset dictionary of their usual keys (packed-json.ts): the data
 *   is read again, so no value in the old form is left.
 */

/** `ts`, computed: the text as written when it was kept, else the ISO form (`…T…:ss.sssZ`) of `ts_ms`. */
export const TS = `TEXT GENERATED ALWAYS AS (coalesce(ts_text, strftime('%Y-%m-%dT%H:%M:%fZ', ts_ms / 1000.0, 'unixepoch')))`;

/** The text a row keeps of a timestamp: none when `ts` computes it back from `ts_ms` exactly (see `TS`). */
export function storedTs(ts: string | undefined | null, ms: number | undefined | null): string | null {
  if (ts === undefined || ts === null) return null;
  if (ms === undefined || ms === null || !Number.isInteger(ms) || ms < 0 || ms >= 253402300800000) return ts;
  return new Date(ms).toISOString() === ts ? null : ts;
}

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What a row keeps of a uuid: the 16 bytes of a canonical one, else the text as written (see `UUID`). */
export function storedUuid(uuid: string | undefined | null): string | Buffer | null {
  if (uuid === undefined || uuid === null) return null;
  return CANONICAL_UUID.test(uuid) ? Buffer.from(uuid.replace(/-/g, ''), 'hex') : uuid;
}

const hexPart = (from: number, length?: number) =>
  `substr(hex(uuid_raw), ${from}${length === undefined ? '' : `, ${length}`})`;
/** `uuid`, computed: the canonical text of stored bytes, else the text as written. */
export const UUID = `TEXT GENERATED ALWAYS AS (CASE WHEN typeof(uuid_raw) = 'blob' THEN lower(${hexPart(1, 8)} || '-' ||
  ${hexPart(9, 4)} || '-' || ${hexPart(13, 4)} || '-' || ${hexPart(17, 4)} || '-' || ${hexPart(21)}) ELSE uuid_raw END)`;

/** The kinds of records and documents, numbered from 1 (`kind_raw`); another kind is stored as its text. */
// Never renumbered (only appended to): a stored number means its kind here.
export const RECORD_KINDS = [
  'user',
  'assistant',
  'system',
  'attachment',
  'progress',
  'last-prompt',
  'queue-operation',
  'file-history-snapshot',
  'cost-state',
  'meta',
] as const;
export const DOC_KINDS = ['prompt', 'assistant', 'thinking', 'tool-input', 'tool-output'] as const;

/** What a row keeps of a kind: its number in `kinds` as text (the column's affinity is text), else the kind. */
export function storedKind(kind: string, kinds: readonly string[]): string {
  const index = kinds.indexOf(kind);
  return index === -1 ? kind : String(index + 1);
}

export const KIND = (kinds: readonly string[]) =>
  `TEXT GENERATED ALWAYS AS (CASE kind_raw ${kinds.map((k, i) => `WHEN '${i + 1}' THEN '${k}'`).join(' ')} ELSE kind_raw END)`;

const computed = (table: string, column: string, definition: string) => `
  ALTER TABLE ${table} RENAME COLUMN ${column} TO ${column}_raw;
  ALTER TABLE ${table} ADD COLUMN ${column} ${definition} VIRTUAL;`;

const computedTs = (table: string) => `
  ALTER TABLE ${table} RENAME COLUMN ts TO ts_text;
  ALTER TABLE ${table} ADD COLUMN ts ${TS} VIRTUAL;`;

export const COMPACT_SCHEMA = `
  ${computedTs('records')}
  ${computedTs('docs')}
  ${computed('records', 'uuid', UUID)}
  ${computed('records', 'kind', KIND(RECORD_KINDS))}
  ${computed('docs', 'kind', KIND(DOC_KINDS))}
  -- Calls and results: keyed by tool_use id first, so that their primary key serves the lookups by id (the separate
  -- id indexes go) and a small index on the file serves the lookups by file.
  DROP TABLE calls;
  CREATE TABLE calls (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    tool_use_id TEXT NOT NULL,
    line INTEGER NOT NULL,
    name TEXT NOT NULL,
    input TEXT,
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
    content TEXT NOT NULL,
    tool_use_result TEXT,
    uuid ${UUID} VIRTUAL,
    ts ${TS} VIRTUAL,
    PRIMARY KEY (tool_use_id, file_id)
  );
  CREATE INDEX results_file ON results(file_id);
  DROP INDEX IF EXISTS responses_ts;
  DROP INDEX IF EXISTS docs_call;
  CREATE INDEX docs_call ON docs(call_id) WHERE call_id IS NOT NULL AND tool IS NULL;
  DROP INDEX IF EXISTS records_uuid;
  DROP TABLE call_facts;
  CREATE TABLE call_fact_rows (
    tool_use_id TEXT PRIMARY KEY,
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
    ts ${TS} VIRTUAL
  );
  CREATE INDEX call_fact_rows_file ON call_fact_rows(file_id);
  -- Per-tool statistics over all calls read this index only (counts, categories, durations in order).
  CREATE INDEX call_facts_stats ON call_fact_rows(name, duration_ms, has_result, is_error, severity, category);
  -- A LEFT JOIN on the files' primary key: a query that reads no session column does not touch files at all.
  CREATE VIEW call_facts AS
    SELECT c.tool_use_id, f.session_id, c.file_id, c.line, c.name, c.canonical_name, c.ts, c.ts_ms, c.agent_id,
      c.has_result, c.is_error, c.category, c.severity, c.error_message, c.exit_code, c.duration_ms, c.summary
    FROM call_fact_rows c LEFT JOIN files f ON f.id = c.file_id;
`;

/** Drop everything derived from transcripts, for the schema from the compact step on (the archive is kept). */
export const RESET_DATA_COMPACT = `
  DELETE FROM docs; INSERT INTO docs_fts(docs_fts) VALUES ('delete-all');
  DELETE FROM records; DELETE FROM titles; DELETE FROM calls; DELETE FROM results; DELETE FROM issues;
  DELETE FROM call_fact_rows; DELETE FROM sessions; DELETE FROM files; DELETE FROM responses; DELETE FROM secret_counts;
`;
