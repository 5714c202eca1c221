import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import { ARCHIVE_TABLES } from './schema-archive.js';

/** What `salvageArchive` copied from a damaged index into its new one. */
export interface Salvaged {
  /** Archived transcripts kept, each whole or to the first byte a lost chunk held. */
  readonly files: number;
  /** Archived transcripts of the damaged file none of whose bytes could be read again. */
  readonly lost: number;
  /** Archived transcripts kept only in part: their bytes up to the first lost chunk. */
  readonly cut: number;
}

const NONE: Salvaged = { files: 0, lost: 0, cut: 0 };

/**
 * Copy what still reads of the archive tables (`ARCHIVE_TABLES`: the transcripts their agents deleted, kept nowhere
 * else, and the settings) from a damaged index moved aside (`asidePath`) into the new one (`db`, fresh and empty).
 * A damaged file was moved aside whole, and the archive with it, although a damaged page of the derived tables (or of
 * a few chunks) leaves the archive's other rows readable: each row is read on its own (by rowid), so a damaged page
 * loses its rows, not the table's. An archived transcript keeps its bytes from offset 0 up to the first chunk lost
 * (the archive reads its bytes without gaps); one with none is dropped. Never throws: what cannot be read is left.
 */
export function salvageArchive(db: Database.Database, asidePath: string): Salvaged {
  try {
    db.prepare('ATTACH DATABASE ? AS salvage').run(asidePath);
  } catch {
    return NONE;
  }
  try {
    const before = countOf(db, 'SELECT COUNT(*) FROM salvage.archive_files');
    db.transaction(() => {
      for (const table of ARCHIVE_TABLES) copyReadableRows(db, table);
    })();
    return { ...withoutGaps(db), lost: Math.max(0, before - countOf(db, 'SELECT COUNT(*) FROM archive_files')) };
  } finally {
    db.exec('DETACH DATABASE salvage');
  }
}

/** A count, or 0 where it cannot be read (a damaged page on the way). */
function countOf(db: Database.Database, sql: string): number {
  try {
    return Number(db.prepare(sql).pluck().get() ?? 0);
  } catch {
    return 0;
  }
}

/** The columns `table` has both in the new index and in the damaged one (an older index may lack later ones). */
function sharedColumns(db: Database.Database, table: string): string[] {
  const names = (schema: string) =>
    new Set(
      (db.prepare(`PRAGMA ${schema}.table_info(${table})`).all() as { name: string }[]).map((c) => `"${c.name}"`),
    );
  const old = names('salvage');
  return [...names('main')].filter((name) => old.has(name));
}

/**
 * Each row of `table` that reads, one at a time, into the new index: with its rowid into a fresh one; into one in use
 * (`only`), the rows that `only` (SQL over `salvage.<table>`'s row `o`) selects, given new rowids.
 */
function copyReadableRows(db: Database.Database, table: string, only?: string): void {
  let columns: string[];
  let last: number;
  try {
    columns = sharedColumns(db, table).filter((c) => only === undefined || c !== '"id"');
    last = Number(db.prepare(`SELECT MAX(rowid) FROM salvage.${table}`).pluck().get() ?? 0);
  } catch {
    return;
  }
  if (columns.length === 0) return;
  const list = columns.join(', ');
  const copy = db.prepare(
    only === undefined
      ? `INSERT OR IGNORE INTO main.${table} (rowid, ${list}) SELECT rowid, ${list} FROM salvage.${table} WHERE rowid = ?`
      : `INSERT OR IGNORE INTO main.${table} (${list}) SELECT ${list} FROM salvage.${table} o WHERE o.rowid = ? AND ${only}`,
  );
  for (let rowid = 1; rowid <= last; rowid++) {
    try {
      copy.run(rowid);
    } catch {
      // a row on a damaged page: lost
    }
  }
}

/** The settings key that says a moved-aside index's archive was brought into this one (`salvageSiblings`). */
export const salvagedKey = (name: string): string => `salvaged:${name}`;

/** Mark a moved-aside index as read (its archive copied by `salvageArchive`): `salvageSiblings` passes it by. */
export function markSalvaged(db: Database.Database, name: string): void {
  db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(
    salvagedKey(name),
    new Date().toISOString(),
  );
}

/**
 * Archived transcripts this index lacks, brought back from the indexes moved aside beside it (`<name>.corrupt-<time>`,
 * a damaged file or one an older AgentDash could not read: an older build moved a newer index aside so, and a round
 * trip to it and back left the archive there, 76 archived sessions gone). Each such file is read once (a settings
 * key marks it): the archived transcripts whose path this index has no archive of, with their chunks, as far as they
 * read. Returns how many were brought back, by file. Never throws.
 */
export function salvageSiblings(
  db: Database.Database,
  dbPath: string,
): { readonly file: string; readonly files: number }[] {
  const dir = dirname(dbPath);
  const prefix = `${basename(dbPath)}.corrupt-`;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(prefix) && !/-(?:wal|shm|journal)$/.test(n));
  } catch {
    return [];
  }
  // an unchanged home's open prepares no write statement (write/refresh-prepares.test.ts)
  if (names.length === 0) return [];
  const seen = db.prepare('SELECT 1 FROM settings WHERE key = ?').pluck();
  const mark = db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)');
  const out: { file: string; files: number }[] = [];
  for (const name of names.sort()) {
    if (seen.get(salvagedKey(name)) !== undefined) continue;
    const file = join(dir, name);
    try {
      db.prepare('ATTACH DATABASE ? AS salvage').run(file);
    } catch {
      mark.run(salvagedKey(name), 'unreadable');
      continue;
    }
    try {
      const files = db
        .transaction(() => {
          const before = countOf(db, 'SELECT COUNT(*) FROM main.archive_files');
          db.exec('CREATE TEMP TABLE IF NOT EXISTS salvage_had (path TEXT PRIMARY KEY)');
          db.exec('DELETE FROM temp.salvage_had; INSERT INTO temp.salvage_had SELECT path FROM main.archive_files');
          copyReadableRows(db, 'archive_files', 'o.path NOT IN (SELECT path FROM temp.salvage_had)');
          copyReadableRows(
            db,
            'archive_chunks',
            'o.path NOT IN (SELECT path FROM temp.salvage_had) AND o.path IN (SELECT path FROM main.archive_files)',
          );
          withoutGaps(db);
          mark.run(salvagedKey(name), new Date().toISOString());
          return countOf(db, 'SELECT COUNT(*) FROM main.archive_files') - before;
        })
        .immediate();
      out.push({ file, files });
    } catch {
      // busy, or damaged past reading: tried again at the next open
    } finally {
      db.exec('DETACH DATABASE salvage');
    }
  }
  return out;
}

/**
 * Each archived transcript's chunks up to the first gap (a chunk lost), its `archived_bytes` that far; a transcript
 * with no byte left dropped.
 */
function withoutGaps(db: Database.Database): Pick<Salvaged, 'files' | 'cut'> {
  const paths = db.prepare('SELECT path, archived_bytes FROM archive_files').all() as {
    path: string;
    archived_bytes: number;
  }[];
  const chunks = db.prepare('SELECT offset, length FROM archive_chunks WHERE path = ? ORDER BY offset');
  const cutAt = db.prepare('DELETE FROM archive_chunks WHERE path = ? AND offset >= ?');
  const setBytes = db.prepare('UPDATE archive_files SET archived_bytes = ? WHERE path = ?');
  const drop = db.prepare('DELETE FROM archive_files WHERE path = ?');
  let files = 0;
  let cut = 0;
  db.transaction(() => {
    for (const { path, archived_bytes } of paths) {
      let end = 0;
      for (const chunk of chunks.all(path) as { offset: number; length: number }[]) {
        if (chunk.offset !== end) break;
        end += chunk.length;
      }
      cutAt.run(path, end);
      if (end === 0) {
        drop.run(path);
        continue;
      }
      files += 1;
      if (end < archived_bytes) cut += 1;
      if (end !== archived_bytes) setBytes.run(end, path);
    }
  })();
  return { files, cut };
}

/** What a rebuild kept of a damaged index's archive, as the warning says it ('' when it held none). */
export function salvagedWords({ files, lost, cut }: Salvaged): string {
  if (files === 0 && lost === 0) return '';
  const kept = `; kept ${files} archived transcript${files === 1 ? '' : 's'} (copies of files their agents deleted)`;
  const part = cut > 0 ? `, ${cut} of them up to a damaged part` : '';
  const gone = lost > 0 ? `; ${lost} could not be read again (their sessions are gone unless their files are)` : '';
  return `${kept}${part}${gone}`;
}
