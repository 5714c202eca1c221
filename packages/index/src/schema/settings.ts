/** User choices stored in the index database (they survive upgrades: migrations keep the `settings` table). */
import type Database from 'better-sqlite3';
import { preparedOnUse } from './prepared.js';

/** The settings key of the last time a session was forgotten on purpose, in ms. */
export const FORGOT_KEY = 'archive_forgot_ms';

export class Settings {
  private readonly s;
  constructor(private readonly db: Database.Database) {
    this.s = preparedOnUse({
      get: () => db.prepare('SELECT value FROM settings WHERE key = ?').pluck(),
      set: () => db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)'),
    });
  }

  /** Whether refreshes keep a compressed copy of transcript bytes (default on). */
  archiving(): boolean {
    return (this.s.get.get('archive') as string | undefined) !== 'off';
  }

  setArchiving(on: boolean): void {
    this.s.set.run('archive', on ? 'on' : 'off');
  }

  /**
   * Note that a session was forgotten on purpose now: an index moved aside before may hold it, and is not read back
   * into this one (`salvageSiblings`).
   */
  noteForgotten(): void {
    this.s.set.run(FORGOT_KEY, String(Date.now()));
  }

  /**
   * The paths named on the command line that this index was built from (resolved, sorted): what a command given no
   * path reads on a machine whose agent homes hold nothing (a `--db` of a backup, of another machine's homes).
   */
  namedRoots(): string[] {
    return namedRootsOf(this.s.get.get(NAMED_ROOTS) as string | undefined);
  }

  /** Add paths to `namedRoots` (those already there are not written again). */
  addNamedRoots(paths: readonly string[]): void {
    // Read and written in one write transaction: two processes adding paths at once keep both.
    this.db
      .transaction(() => {
        const known = this.namedRoots();
        if (paths.every((p) => known.includes(p))) return;
        this.s.set.run(NAMED_ROOTS, JSON.stringify([...new Set([...known, ...paths])].sort()));
      })
      .immediate();
  }

  /** True the first time it is asked for this key in this database (for notices shown once). */
  firstTime(key: string): boolean {
    const stored = `once:${key}`;
    if (this.s.get.get(stored) !== undefined) return false;
    this.s.set.run(stored, new Date().toISOString());
    return true;
  }
}

/** The settings key of `namedRoots`. */
const NAMED_ROOTS = 'named_roots';

/** `namedRoots` from its stored value (a JSON array of strings; anything else is none). */
function namedRootsOf(value: string | undefined): string[] {
  if (value === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}
