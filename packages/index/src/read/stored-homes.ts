/**
 * Where the indexed files are, asked by the CLI before it picks the paths of a command given none: the same
 * questions through the full index and the warm path's light connection, so each rule is here once.
 */
import type Database from 'better-sqlite3';
import { pathCond } from './scope.js';

/** Whether the archive holds files under this path (a home whose transcripts the agent has all deleted). */
export function hasArchivedFilesUnder(db: Database.Database, path: string): boolean {
  const cond = pathCond([path], 'f');
  return db.prepare(`SELECT 1 FROM archive_files f WHERE ${cond.sql} LIMIT 1`).get(...cond.params) !== undefined;
}

/**
 * The folders the indexed files are under, one per agent home or folder of project folders (`files.home`: each
 * project folder's parent, for Claude Code the home's `projects`), without their trailing separator, sorted. A
 * database indexed from named paths (a backup, another machine's homes) answers with those paths' folders.
 */
export function storedHomes(db: Database.Database): string[] {
  const homes = db.prepare('SELECT DISTINCT home FROM files').pluck().all() as string[];
  return homes.map((home) => (home.length > 1 ? home.replace(/[\\/]$/, '') : home)).sort();
}
