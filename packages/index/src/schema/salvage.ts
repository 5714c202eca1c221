import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { isCorruption } from '../errors.js';
import { rowidsOf } from './salvage-rows.js';
import { FORGOT_KEY } from './settings.js';

/** What `salvageArchive` copied from a damaged index into its new one. */
export interface Salvaged {
  /** Archived transcripts kept, each whole or to the first byte a lost chunk held. */
  readonly files: number;
  /** Archived transcripts of the damaged file none of whose bytes could be read again. */
  readonly lost: number;
  /** Archived transcripts kept only in part: their bytes up to the first lost chunk. */
  readonly cut: number;
}

/** The settings key that says a moved-aside index's archive was read into this one. */
export const salvagedKey = (name: string): string => `salvaged:${name}`;

/**
 * A damaged or moved-aside index, opened read-only: nothing is written into it (a connection that writes folds its
 * WAL into it when it closes). Undefined when it cannot be opened.
 */
function openAside(path: string): Database.Database | undefined {
  try {
    return new Database(path, { readonly: true, fileMustExist: true });
  } catch {
    return undefined;
  }
}

const isIoError = (error: unknown): boolean =>
  String((error as { code?: unknown })?.code ?? '').startsWith('SQLITE_IOERR');

/** The columns of `table` in this index, in order. */
function columnsOf(db: Database.Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
}

/**
 * Copy the rows of `table` that `keep` takes from the moved-aside index into `db` (inside the caller's transaction),
 * each read on its own: a row on a damaged page is lost, the others are not. A column this index has and the other
 * lacks (an older index) takes its default; the chunks' ids are new ones. Returns the copied rows' `path`s.
 */
function copyRows(
  db: Database.Database,
  aside: Database.Database,
  table: string,
  keep: (row: Record<string, unknown>) => boolean,
): string[] {
  const columns = columnsOf(db, table).filter((c) => c !== 'id');
  if (columns.length === 0) return [];
  let read: Database.Statement;
  try {
    read = aside.prepare(`SELECT * FROM "${table}" WHERE rowid = ?`);
  } catch {
    return [];
  }
  const inserts = new Map<string, Database.Statement>();
  const copied: string[] = [];
  for (const rowid of rowidsOf(aside, table)) {
    let row: Record<string, unknown> | undefined;
    try {
      row = read.get(rowid) as Record<string, unknown> | undefined;
    } catch (error) {
      // a damaged page of the moved file: its rows are lost; an error of this index is thrown
      if (isCorruption(error) || isIoError(error)) continue;
      throw error;
    }
    if (row === undefined || !keep(row)) continue;
    const present = columns.filter((c) => row[c] !== undefined);
    const key = present.join('\u0000');
    let insert = inserts.get(key);
    if (insert === undefined) {
      const names = present.map((c) => `"${c}"`).join(', ');
      insert = db.prepare(`INSERT OR IGNORE INTO "${table}" (${names}) VALUES (${present.map(() => '?').join(', ')})`);
      inserts.set(key, insert);
    }
    if (insert.run(...present.map((c) => row[c])).changes > 0) copied.push(String(row.path ?? ''));
  }
  return copied;
}

/**
 * The archived transcripts `paths` (just copied), each with its chunks up to the first gap (a chunk lost) and its
 * `archived_bytes` that far; one that had bytes and has none left is dropped (an empty transcript is kept: it is
 * read as it was, empty).
 */
function withoutGaps(
  db: Database.Database,
  paths: readonly string[],
): Pick<Salvaged, 'files' | 'cut'> & { lost: number } {
  const bytesOf = db.prepare('SELECT archived_bytes FROM archive_files WHERE path = ?').pluck();
  const chunks = db.prepare('SELECT offset, length FROM archive_chunks WHERE path = ? ORDER BY offset');
  const cutAt = db.prepare('DELETE FROM archive_chunks WHERE path = ? AND offset >= ?');
  const setBytes = db.prepare('UPDATE archive_files SET archived_bytes = ? WHERE path = ?');
  const drop = db.prepare('DELETE FROM archive_files WHERE path = ?');
  let files = 0;
  let cut = 0;
  let lost = 0;
  for (const path of paths) {
    const archived = Number(bytesOf.get(path) ?? 0);
    let end = 0;
    for (const chunk of chunks.all(path) as { offset: number; length: number }[]) {
      if (chunk.offset !== end) break;
      end += chunk.length;
    }
    cutAt.run(path, end);
    if (end === 0 && archived > 0) {
      drop.run(path);
      lost += 1;
      continue;
    }
    files += 1;
    if (end < archived) cut += 1;
    if (end !== archived) setBytes.run(end, path);
  }
  return { files, cut, lost };
}

/**
 * Copy what still reads of the archive (the transcripts their agents deleted, kept nowhere else), its versions and
 * the settings from a damaged index moved aside (`asidePath`) into the new one (`db`, fresh). A damaged page of the
 * derived tables, or of a few chunks, leaves the archive's other rows readable: each row is read on its own, its
 * rowid listed from every b-tree that holds it (`rowidsOf`), so a damaged page loses its rows, not the table's. An
 * archived transcript keeps its bytes from offset 0 up to the first chunk lost. The moved file is only read. What
 * cannot be read is left; an error of this index (a full disk) is thrown, the moved file then read at the next open.
 */
export function salvageArchive(db: Database.Database, asidePath: string): Salvaged {
  const aside = openAside(asidePath);
  if (aside === undefined) return { files: 0, lost: 0, cut: 0 };
  try {
    const kept = db
      .transaction(() => {
        const before = readCount(aside, 'archive_files');
        const paths = copyRows(db, aside, 'archive_files', () => true);
        copyRows(db, aside, 'archive_chunks', () => true);
        copyRows(db, aside, 'archive_versions', () => true);
        copyRows(db, aside, 'settings', () => true);
        const result = withoutGaps(db, paths);
        markSalvaged(db, basename(asidePath));
        return { files: result.files, cut: result.cut, lost: Math.max(result.lost, before - result.files) };
      })
      .immediate();
    return kept;
  } finally {
    aside.close();
  }
}

/** How many rows of `table` the moved file says it has (0 where that does not read). */
function readCount(aside: Database.Database, table: string): number {
  try {
    return Number(aside.prepare(`SELECT COUNT(*) FROM "${table}"`).pluck().get() ?? 0);
  } catch {
    return 0;
  }
}

/** Mark a moved-aside index as read into this one: `salvageSiblings` passes it by. */
export function markSalvaged(db: Database.Database, name: string): void {
  db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(
    salvagedKey(name),
    new Date().toISOString(),
  );
}

/** The time in a moved-aside index's name (`<name>.corrupt-2026-12-01T10-00-00-000Z`), in ms. */
function asideTimeMs(name: string): number {
  const m = /\.corrupt-(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)-(\d{3})Z$/.exec(name);
  return m === null ? 0 : Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
}

/**
 * Archived transcripts of files gone from disk that this index lacks, brought back from the indexes moved aside beside
 * it (`<name>.corrupt-<time>`: a damaged file, or one an older AgentDash could not read: an older build moved a newer
 * index aside so, and a round trip to it and back left the archive there, 76 archived sessions gone). Each such file is
 * read once (a settings key marks it), read-only; not while archiving is off, nor a file moved aside before a session
 * was forgotten on purpose (it would bring that session back). Returns how many came back, by file.
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
  // an open with none prepares no statement (write/refresh-prepares.test.ts)
  if (names.length === 0) return [];
  const setting = db.prepare('SELECT value FROM settings WHERE key = ?').pluck();
  if (setting.get('archive') === 'off') return [];
  const forgotMs = Number(setting.get(FORGOT_KEY) ?? 0);
  const out: { file: string; files: number }[] = [];
  for (const name of names.sort()) {
    if (setting.get(salvagedKey(name)) !== undefined || asideTimeMs(name) < forgotMs) continue;
    const file = join(dir, name);
    const aside = openAside(file);
    if (aside === undefined) continue;
    try {
      const files = db
        .transaction(() => {
          const had = new Set(db.prepare('SELECT path FROM archive_files').pluck().all() as string[]);
          const gone = (row: Record<string, unknown>) =>
            typeof row.path === 'string' && !had.has(row.path) && !existsSync(row.path);
          const paths = copyRows(db, aside, 'archive_files', gone);
          // their bytes, and those of their meta files (a subagent's `.meta.json`, archived under its own path)
          const metaOf = db.prepare('SELECT meta_path FROM archive_files WHERE path = ?').pluck();
          const wanted = new Set(paths);
          for (const path of paths) {
            const meta = metaOf.get(path);
            if (typeof meta === 'string') wanted.add(meta);
          }
          copyRows(db, aside, 'archive_chunks', (row) => wanted.has(String(row.path)));
          const { files: kept } = withoutGaps(db, paths);
          markSalvaged(db, name);
          return kept;
        })
        .immediate();
      out.push({ file, files });
    } catch {
      // this index busy or full: the moved file is read at the next open
    } finally {
      aside.close();
    }
  }
  return out;
}

/** What a rebuild kept of a damaged index's archive, as the warning says it ('' when it held none). */
export function salvagedWords({ files, lost, cut }: Salvaged): string {
  if (files === 0 && lost === 0) return '';
  const kept = `; kept ${files} archived transcript${files === 1 ? '' : 's'} (the index's copies, of deleted files too)`;
  const part = cut > 0 ? `, ${cut} of them up to a damaged part` : '';
  const gone = lost > 0 ? `; ${lost} could not be read again (their sessions are gone unless their files are)` : '';
  return `${kept}${part}${gone}`;
}
