import { closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { IndexUnavailableError, NotAnIndexError } from './errors.js';

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Refuse an existing file that is not an SQLite database (a transcript or a note given to `--db` by mistake): only an
 * empty file or one that starts with the SQLite header may be opened, and so perhaps moved aside as damaged.
 * A file that cannot be read is left for the open to report.
 */
export function assertSqliteFile(dbPath: string): void {
  const stat = statSync(dbPath, { throwIfNoEntry: false });
  if (stat === undefined) return;
  if (stat.isDirectory()) throw new IndexUnavailableError(dbPath, 'it is a directory; give --db a file path');
  if (!stat.isFile()) throw new NotAnIndexError(dbPath, 'it is not a regular file');
  if (stat.size === 0) return;
  const head = Buffer.alloc(SQLITE_HEADER.length);
  let fd: number;
  try {
    fd = openSync(dbPath, 'r');
  } catch {
    return;
  }
  try {
    const read = readSync(fd, head, 0, head.length, 0);
    if (read < head.length || !head.equals(SQLITE_HEADER)) {
      throw new NotAnIndexError(dbPath, 'it does not start with the SQLite header');
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Refuse an SQLite database that holds tables but not ours (another program's database): migrating would write our
 * tables into it. Every schema version has the `files` table, and a fresh database has no tables at all.
 */
export function assertIndexSchema(db: Database.Database, dbPath: string): void {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  if (tables.length > 0 && !tables.includes('files')) {
    throw new NotAnIndexError(dbPath, 'it is an SQLite database of another program');
  }
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
