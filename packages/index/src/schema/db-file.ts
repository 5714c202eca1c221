import { closeSync, constants, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { messageOf } from '@agentdash/core/base';
import type Database from 'better-sqlite3';
import { IndexUnavailableError, NotAnIndexError } from '../errors.js';

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** The first `length` bytes of a file (fewer when it is shorter); undefined when it cannot be opened. */
function headOf(dbPath: string, length: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(dbPath, 'r');
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(length);
    return head.subarray(0, readSync(fd, head, 0, length, 0));
  } finally {
    closeSync(fd);
  }
}

/** Whether bytes start with the SQLite header. */
const isSqlite = (head: Buffer): boolean =>
  head.length >= SQLITE_HEADER.length && head.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER);

/**
 * What is at the index's path, looked at without opening it (a directory or a device refused): nothing, or a file.
 * Opening and closing the file would drop the locks SQLite connections of this process hold on it (`createPrivately`).
 */
export function assertIndexPath(dbPath: string): 'absent' | 'file' {
  const stat = statSync(dbPath, { throwIfNoEntry: false });
  if (stat === undefined) return 'absent';
  if (stat.isDirectory()) throw new IndexUnavailableError(dbPath, 'it is a directory; give --db a file path');
  if (!stat.isFile()) throw new NotAnIndexError(dbPath, 'it is not a regular file');
  return 'file';
}

/**
 * Refuse an existing file that is not an SQLite database (a transcript or a note given to `--db` by mistake): only an
 * empty file or one that starts with the SQLite header may be moved aside as damaged. Read with node:fs, so only once
 * SQLite has failed to read the file (`openOrRebuild`), never beside a connection of this process (`assertIndexPath`).
 * A file that cannot be read is left for the open to report. A head of zero bytes is the start of a new index
 * another process is writing (read here without SQLite's locks: its first checkpoint extends the file before it
 * writes page 1), so it is let through like an empty file; were it a file of zeros, SQLite refuses it (not a
 * database) and so does `openIndex`, before anything is written.
 */
export function assertSqliteFile(dbPath: string): void {
  if (assertIndexPath(dbPath) !== 'file') return;
  if (statSync(dbPath).size === 0) return;
  const head = headOf(dbPath, SQLITE_HEADER.length);
  if (head !== undefined && !isSqlite(head) && !head.every((byte) => byte === 0))
    throw new NotAnIndexError(dbPath, 'it does not start with the SQLite header');
}

/**
 * The `PRAGMA application_id` of every AgentDash index (`AgDx` in ASCII, 0x41674478), stamped when an index is
 * created or opened read-write and recognised: the SQLite header tells our index from another program's database.
 */
export const INDEX_APPLICATION_ID = 0x41674478;

/** Tables every index of a schema version from 1 on holds. */
const BASE_TABLES = ['files', 'sessions'];
/** Tables every index from schema version 6 on holds (the archive and the settings). */
const ARCHIVE_TABLES_FROM_6 = ['archive_files', 'archive_chunks', 'settings'];

/** What an SQLite database at the index path is: new (empty), ours and stamped, or ours from before the stamp. */
export type IndexFileKind = 'new' | 'stamped' | 'unstamped';

/**
 * Recognise the database as an AgentDash index before anything writes to it (WAL mode, the migration, the stamp),
 * and refuse it otherwise (another program's database, with or without a `files` table or a `user_version`):
 * - `new`: no tables, no `user_version`, no `application_id` (an empty file): made an index;
 * - `stamped`: stamped with `INDEX_APPLICATION_ID` (of any schema version: a newer one is for `migrate` to report);
 * - `unstamped`: an index made before the stamp: a `user_version` from 1 to `schemaVersion` and its tables.
 * Throws what SQLite throws when the file cannot be read (damage), for the caller to judge with `headerIsOurs`.
 */
export function recogniseIndex(db: Database.Database, dbPath: string, schemaVersion: number): IndexFileKind {
  // The three facts from one snapshot: read one by one, another process creating the index in between (stamp, then
  // tables and user_version) made a new index look like another program's database (unstamped, with tables).
  const { applicationId, userVersion, tables } = db.transaction(() => ({
    applicationId: db.pragma('application_id', { simple: true }) as number,
    userVersion: db.pragma('user_version', { simple: true }) as number,
    tables: new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]),
  }))();
  if (applicationId === INDEX_APPLICATION_ID) return 'stamped';
  if (applicationId === 0 && userVersion === 0 && tables.size === 0) return 'new';
  const required = userVersion >= 6 ? [...BASE_TABLES, ...ARCHIVE_TABLES_FROM_6] : BASE_TABLES;
  if (
    applicationId === 0 &&
    userVersion >= 1 &&
    userVersion <= schemaVersion &&
    required.every((table) => tables.has(table))
  ) {
    return 'unstamped';
  }
  throw new NotAnIndexError(dbPath, 'it is an SQLite database of another program');
}

/**
 * Whether the file's SQLite header carries our `application_id` (bytes 68-71, big-endian), read without SQLite: a
 * damaged database is moved aside only when it is recognisably ours.
 */
export function headerIsOurs(dbPath: string): boolean {
  const header = headOf(dbPath, 100);
  return (
    header !== undefined &&
    header.length === 100 &&
    isSqlite(header) &&
    header.readUInt32BE(68) === INDEX_APPLICATION_ID
  );
}

/**
 * `mkdir -p`, one folder at a time from the deepest one that exists. Node 20's recursive `mkdirSync` spins forever
 * where a folder cannot be made (under `/proc`); this fails at once with the error of the first folder it cannot make.
 */
export function makeFolders(folder: string): void {
  const missing: string[] = [];
  let current = resolve(folder);
  while (statSync(current, { throwIfNoEntry: false }) === undefined) {
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      // Another process made it meanwhile.
      if ((error as { code?: unknown }).code !== 'EEXIST' || !statSync(path).isDirectory()) throw error;
    }
  }
}

/**
 * The index holds full prompts, outputs and thinking: its folder is created 0700 and the database file 0600 (SQLite
 * gives its -wal and -shm files the database's permissions). Existing files and folders are left as they are.
 *
 * An existing file is never opened here, only looked at (`assertIndexPath`): SQLite's locks on it are the process's
 * POSIX locks, which closing any descriptor of the file drops, so an open and close here, beside a connection this
 * process holds already (`serve`'s threads, the CLI's warm connection), left that connection without its lock, and
 * another program's SQLite closing the file then deleted the WAL it wrote to. What the file holds is SQLite's to
 * read: one that is no database fails its first read, and is refused then (`openOrRebuild`).
 */
export function createPrivately(dbPath: string): void {
  const path = resolve(dbPath);
  try {
    if (assertIndexPath(dbPath) === 'absent') {
      makeFolders(dirname(path));
      // exclusive: a file another process made meanwhile is left alone (and unopened)
      closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600));
    }
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'EEXIST') return;
    throw asUnavailable(dbPath, error);
  }
}

/** A failure to open or create the database file that is about the path, not about its contents. */
export function asUnavailable(dbPath: string, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const pathCodes = ['EACCES', 'EPERM', 'ENOTDIR', 'EROFS', 'EISDIR', 'ENOENT', 'ENOSPC', 'ELOOP'];
  const isPathProblem =
    typeof code === 'string' &&
    (pathCodes.includes(code) || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY'));
  if (!isPathProblem) return error;
  const reason = messageOf(error);
  return new IndexUnavailableError(dbPath, reason, { cause: error });
}
