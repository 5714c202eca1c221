/**
 * Whether the archive holds files under a path: asked by the CLI before it picks the paths of a command given none,
 * and by a refresh of a path gone from disk, through the full index or the warm path's light connection (one rule).
 */
import type Database from 'better-sqlite3';
import { pathCond } from './scope.js';

/** Whether the archive holds files under this path (a home whose transcripts the agent has all deleted). */
export function hasArchivedFilesUnder(db: Database.Database, path: string): boolean {
  const cond = pathCond([path], 'f');
  return db.prepare(`SELECT 1 FROM archive_files f WHERE ${cond.sql} LIMIT 1`).get(...cond.params) !== undefined;
}
