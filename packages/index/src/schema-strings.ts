/**
 * Schema step "strings" (issue 8: the index near the size of what it must hold). One migration entry, kept in its own
 * file so that its number can change when branches merge. Derived data only: the archive tables are not touched.
 *
 * Texts that repeat on every row are stored once, in `strings`, and rows keep their number:
 *
 * - `records`' working folder, client version, git branch and model (the same few values on thousands of records)
 *   live in `record_rows` as `*_ref`; `records` is a view that gives back the old columns, its `INSTEAD OF INSERT`
 *   trigger stores new texts and its `INSTEAD OF DELETE` trigger deletes rows, so readers are unchanged. (The
 *   importer writes `record_rows` itself, numbering the texts once per transaction: the trigger's lookups cost.)
 * - `responses`' session key (a long `<projectDir>/<id>` text) and model live in `response_rows` as `session_ref`
 *   and `model_ref`; `responses` is a view with the old columns (and `session_ref`, for lookups by session that
 *   use the key). Writers write `response_rows` (session-usage.ts), through `internString`.
 *
 * A string is never deleted or renumbered while a row may name it; `strings` is emptied with the rest of the derived
 * data. The rows are converted in place: nothing is read again.
 */
import { KIND, RECORD_KINDS, TS, UUID } from './schema-compact.js';

/** The number of a stored string (NULL for NULL). */
const ref = (value: string) => `(SELECT id FROM strings WHERE text = ${value})`;
/** The text of a string's number (NULL for NULL). */
const text = (column: string) => `(SELECT text FROM strings WHERE id = ${column})`;

const RECORD_TEXTS = ['cwd', 'version', 'git_branch', 'model'] as const;
/** Record columns stored as they are, in table order around the interned ones. */
const RECORD_HEAD = ['file_id', 'line', 'kind_raw', 'uuid_raw', 'ts_text', 'ts_ms'] as const;
export const RECORD_TAIL = [
  'message_id',
  'is_sidechain',
  'is_synthetic',
  'is_prompt',
  'input_tokens',
  'output_tokens',
  'cache_creation_tokens',
  'cache_read_tokens',
  'request_id',
  'cache_1h_tokens',
  'reasoning_tokens',
  'request_ref',
] as const;
const RESPONSE_PLAIN = [
  'key',
  'message_id',
  'agent_id',
  'ts_ms',
  'input_tokens',
  'output_tokens',
  'cache_creation_tokens',
  'cache_1h_tokens',
  'cache_read_tokens',
  'reasoning_tokens',
] as const;

/** Store texts (NULLs skipped) that are not stored yet, whatever the conflict policy of the statement around. */
const storeStrings = (values: readonly string[]) =>
  values
    .map(
      (v) =>
        `INSERT INTO strings (text) SELECT ${v} WHERE ${v} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM strings WHERE text = ${v});`,
    )
    .join('\n    ');

/** The table's defaults for columns an insert through the view leaves out (a view passes NULL). */
const RECORD_DEFAULTS: Readonly<Record<string, string>> = { is_sidechain: '0', is_synthetic: '0', is_prompt: '0' };
const value = (column: string) =>
  RECORD_DEFAULTS[column] === undefined ? `new.${column}` : `coalesce(new.${column}, ${RECORD_DEFAULTS[column]})`;

/**
 * The `records` view over `record_rows` and its triggers, for the record columns stored as they are after the
 * interned ones (`tail`: the columns of the schema step that creates the view).
 */
export const recordsView = (tail: readonly string[]) => `
  CREATE VIEW records AS SELECT ${RECORD_HEAD.join(', ')},
      ${RECORD_TEXTS.map((c) => `${text(`${c}_ref`)} AS ${c}`).join(', ')},
      ${tail.join(', ')}, ts, uuid, kind
    FROM record_rows;
  CREATE TRIGGER records_insert INSTEAD OF INSERT ON records BEGIN
    ${storeStrings(RECORD_TEXTS.map((c) => `new.${c}`))}
    INSERT INTO record_rows (${[...RECORD_HEAD, ...RECORD_TEXTS.map((c) => `${c}_ref`), ...tail].join(', ')})
      VALUES (${[...RECORD_HEAD.map(value), ...RECORD_TEXTS.map((c) => ref(`new.${c}`)), ...tail.map(value)].join(', ')});
  END;
  -- A file read again from the start drops its records through the view (by file: the primary key's prefix).
  CREATE TRIGGER records_delete INSTEAD OF DELETE ON records BEGIN
    DELETE FROM record_rows WHERE file_id = old.file_id AND line = old.line;
  END;`;

export const STRINGS_SCHEMA = `
  CREATE TABLE strings (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
  INSERT INTO strings (text)
    SELECT cwd FROM records WHERE cwd IS NOT NULL UNION SELECT version FROM records WHERE version IS NOT NULL
    UNION SELECT git_branch FROM records WHERE git_branch IS NOT NULL UNION SELECT model FROM records WHERE model IS NOT NULL
    UNION SELECT session_id FROM responses UNION SELECT model FROM responses;

  CREATE TABLE record_rows (
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
    is_prompt INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cache_creation_tokens INTEGER,
    cache_read_tokens INTEGER,
    request_id TEXT,
    cache_1h_tokens INTEGER,
    reasoning_tokens INTEGER,
    request_ref TEXT,
    ts ${TS} VIRTUAL,
    uuid ${UUID} VIRTUAL,
    kind ${KIND(RECORD_KINDS)} VIRTUAL,
    PRIMARY KEY (file_id, line)
  ) WITHOUT ROWID;
  INSERT INTO record_rows (${[...RECORD_HEAD, ...RECORD_TEXTS.map((c) => `${c}_ref`), ...RECORD_TAIL].join(', ')})
    SELECT ${[...RECORD_HEAD, ...RECORD_TEXTS.map((c) => ref(c)), ...RECORD_TAIL].join(', ')} FROM records;
  DROP TABLE records;
  ${recordsView(RECORD_TAIL)}

  CREATE TABLE response_rows (
    session_ref INTEGER NOT NULL,
    key TEXT NOT NULL,
    message_id TEXT,
    agent_id TEXT,
    model_ref INTEGER NOT NULL,
    ts_ms REAL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cache_creation_tokens INTEGER NOT NULL,
    cache_1h_tokens INTEGER NOT NULL,
    cache_read_tokens INTEGER NOT NULL,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (session_ref, key)
  ) WITHOUT ROWID;
  INSERT INTO response_rows (session_ref, model_ref, ${RESPONSE_PLAIN.join(', ')})
    SELECT ${ref('session_id')}, ${ref('model')}, ${RESPONSE_PLAIN.join(', ')} FROM responses;
  DROP TABLE responses;
  -- The session through a join (not a subquery), so that a join or filter on the session key reaches the rows by
  -- their primary key.
  CREATE VIEW responses AS SELECT s.text AS session_id, r.session_ref, ${RESPONSE_PLAIN.map((c) => `r.${c}`).join(', ')},
      ${text('r.model_ref')} AS model
    FROM response_rows r JOIN strings s ON s.id = r.session_ref;
`;

/** Drop everything derived from transcripts, for the schema from the strings step on (the archive is kept). */
export const RESET_DATA_STRINGS = `
  DELETE FROM docs; INSERT INTO docs_fts(docs_fts) VALUES ('delete-all');
  DELETE FROM record_rows; DELETE FROM titles; DELETE FROM calls; DELETE FROM results; DELETE FROM issues;
  DELETE FROM call_fact_rows; DELETE FROM sessions; DELETE FROM files; DELETE FROM response_rows;
  DELETE FROM secret_counts; DELETE FROM requests; DELETE FROM strings;
`;

/** Store a text in `strings` unless it is there (a statement of its own: no conflict policy around it). */
export const INTERN_STRING = 'INSERT OR IGNORE INTO strings (text) VALUES (?)';
