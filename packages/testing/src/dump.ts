/**
 * Every table of an index as comparable rows: row ids and watch times dropped, file ids replaced by paths, rows
 * sorted.
 */
import Database from 'better-sqlite3';

const TABLES = ['files', 'records', 'titles', 'calls', 'results', 'issues', 'sessions', 'docs'] as const;

/** A stored string's text for each `*_ref` column of records (the numbers depend on the order of reading). */
const INTERNED = ['cwd', 'version', 'git_branch', 'model'];
const text = (column: string) => `(SELECT text FROM strings WHERE id = r.${column}_ref) AS ${column}`;
const SELECT: Partial<Record<(typeof TABLES)[number], string>> = {
  records: `SELECT r.*, ${INTERNED.map(text).join(', ')} FROM records r`,
};
const REFS = new Set(INTERNED.map((column) => `${column}_ref`));

export type IndexDump = Record<(typeof TABLES)[number] | 'fts', string[]>;

export function dumpIndex(dbPath: string): IndexDump {
  const db = new Database(dbPath, { readonly: true });
  try {
    const pathOf = new Map(
      (db.prepare('SELECT id, path FROM files').all() as { id: number; path: string }[]).map((r) => [r.id, r.path]),
    );
    const out = {} as IndexDump;
    for (const table of TABLES) {
      const rows = db.prepare(SELECT[table] ?? `SELECT * FROM ${table}`).all() as Record<string, unknown>[];
      out[table] = rows
        .map((row) => {
          // appended_ms says when a refresh found records appended (for live status): a live index has it, a
          // batch index of the same finished files does not; it is not data read from the transcripts.
          const { id: _id, file_id, appended_ms: _appended, ...all } = row;
          const rest = Object.fromEntries(Object.entries(all).filter(([key]) => !REFS.has(key)));
          const keep = table === 'sessions' ? row : rest;
          return JSON.stringify(file_id === undefined ? keep : { file: pathOf.get(file_id as number), ...keep });
        })
        .sort();
    }
    // The full-text index must hold exactly the documents: compare what each indexed term finds.
    out.fts = (
      db
        .prepare(
          `SELECT f.path, d.line, d.kind, d.call_id FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid
           JOIN files f ON f.id = d.file_id WHERE docs_fts MATCH 'the OR a OR error OR file'`,
        )
        .all() as unknown[]
    )
      .map((r) => JSON.stringify(r))
      .sort();
    return out;
  } finally {
    db.close();
  }
}

/** How many indexed documents match an FTS5 query (the text itself is not stored: the FTS index answers). */
export function countDocsMatching(dbPath: string, match: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare('SELECT COUNT(*) FROM docs_fts WHERE docs_fts MATCH ?').pluck().get(match) as number;
  } finally {
    db.close();
  }
}

/** Every telemetry row of an index (what an OTLP request stores), as text, read on a connection of its own. */
export function dumpTelemetry(dbPath: string): string {
  const db = new Database(dbPath, { readonly: true });
  try {
    return ['otel_events', 'otel_spans', 'otel_metrics', 'otel_unknown']
      .map((table) => JSON.stringify(db.prepare(`SELECT * FROM ${table} ORDER BY 1`).raw().all()))
      .join('\n');
  } finally {
    db.close();
  }
}
