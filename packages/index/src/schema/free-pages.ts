/**
 * Free pages: a new index is created with `auto_vacuum = INCREMENTAL`, so the pages a refresh freed (search segments
 * merged, rows replaced) are given back to the file system at its end instead of staying in the file. An index made
 * before this kept `auto_vacuum = NONE` (switching needs a whole `VACUUM`); its free pages are reused as it grows.
 */
import type Database from 'better-sqlite3';

/** Set on a connection to a new, empty database before its first table (on an existing one it would write). */
export function useIncrementalVacuum(db: Database.Database): void {
  db.pragma('auto_vacuum = INCREMENTAL');
}

/** Give the free pages back (moves pages from the end of the file into the free ones, then truncates). */
export function releaseFreePages(db: Database.Database): number {
  if ((db.pragma('auto_vacuum', { simple: true }) as number) !== 2) return 0;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  if (free > 0) db.pragma('incremental_vacuum');
  return free;
}
