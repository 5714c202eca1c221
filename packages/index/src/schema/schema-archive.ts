/**
 * Append-only migrations of the tables that cannot be rebuilt: the archive (compressed transcript bytes, the only
 * copy of a transcript its agent deleted; see archive.ts) and the user's settings. Each step carries the
 * `user_version` it brings the database to; versions without a step here changed derived tables only (those are
 * rebuilt from schema-derived.ts instead). A step is never edited or removed once released: add one at the end and
 * raise `SCHEMA_VERSION`. No step may drop or empty an archive table.
 */
import type Database from 'better-sqlite3';
import { SCHEMA_VERSION } from './schema-version.js';

export interface ArchiveStep {
  /** The `user_version` this step brings the database to. */
  readonly version: number;
  readonly sql: string;
}

export const ARCHIVE_STEPS: readonly ArchiveStep[] = [
  // The archive: compressed transcript bytes in chunks, and what is known of each archived file, so that a session
  // outlives its files. `settings`: user choices.
  {
    version: 6,
    sql: `
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
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  },
  // The archive's sizes (`archiveSize`) are summed from this index alone, not from every chunk's row.
  { version: 17, sql: 'CREATE INDEX IF NOT EXISTS archive_chunk_sizes ON archive_chunks(length, length(data));' },
  // Chunks name their codec (archive-codec.ts): those stored before are brotli (0). No byte is rewritten.
  { version: 25, sql: 'ALTER TABLE archive_chunks ADD COLUMN codec INTEGER NOT NULL DEFAULT 0;' },
  // Versions kept beside a file (archive.ts, `keepVersion`): the copy on disk of a transcript that lost records, its
  // chunks under `versionKey(path)`.
  {
    version: 27,
    sql: `
      CREATE TABLE archive_versions (
        path TEXT PRIMARY KEY,
        reason TEXT NOT NULL,
        file_size INTEGER NOT NULL,
        mtime_ms REAL NOT NULL,
        ino INTEGER NOT NULL,
        tail TEXT NOT NULL,
        kept_ms INTEGER NOT NULL
      );`,
  },
  // 28: the derived tables left the versioned steps (schema-derived.ts); nothing to do for the archive.
  // Each archived file's agent and whether it is a headless run's output, kept with its bytes: the derived `files`
  // rows that held them are dropped by every rebuild, after which a gone Codex or Gemini file was read as a Claude
  // session of unknown records. Files archived before take them from `files` while it is there (`fillArchivedAgents`).
  {
    version: 29,
    sql: `
      ALTER TABLE archive_files ADD COLUMN agent TEXT;
      ALTER TABLE archive_files ADD COLUMN headless INTEGER NOT NULL DEFAULT 0;`,
  },
];

/**
 * After step 29, before the derived tables are rebuilt: the agent and headless mark of each archived file from its
 * `files` row, where the index has one (an index built by an earlier version). A file archived, then dropped from
 * `files` by an earlier rebuild, keeps no agent: it is read as before (its path's agent is not known without it).
 */
export function fillArchivedAgents(db: Database.Database, from: number): void {
  if (from >= 29) return;
  const columns = new Set(db.prepare("SELECT name FROM pragma_table_info('files')").pluck().all() as string[]);
  if (!columns.has('agent') || !columns.has('path')) return;
  const headless = columns.has('headless') ? 'coalesce(f.headless, 0)' : '0';
  db.exec(`UPDATE archive_files SET
      agent = (SELECT f.agent FROM files f WHERE f.path = archive_files.path),
      headless = coalesce((SELECT ${headless} FROM files f WHERE f.path = archive_files.path), 0)
    WHERE agent IS NULL`);
}

/** The tables no migration may drop or empty: the archive and the settings. */
export const ARCHIVE_TABLES = ['archive_files', 'archive_chunks', 'settings', 'archive_versions'] as const;

const last = ARCHIVE_STEPS.at(-1)?.version ?? 0;
if (last > SCHEMA_VERSION) {
  throw new Error(`schema-version.ts says ${SCHEMA_VERSION}, but schema-archive.ts has a step to ${last}`);
}
