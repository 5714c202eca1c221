/** User choices stored in the index database (they survive upgrades: migrations keep the `settings` table). */
import type Database from 'better-sqlite3';

export class Settings {
  private readonly s;
  constructor(db: Database.Database) {
    this.s = {
      get: db.prepare('SELECT value FROM settings WHERE key = ?').pluck(),
      set: db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)'),
    };
  }

  /** Whether refreshes keep a compressed copy of transcript bytes (default on). */
  archiving(): boolean {
    return (this.s.get.get('archive') as string | undefined) !== 'off';
  }

  setArchiving(on: boolean): void {
    this.s.set.run('archive', on ? 'on' : 'off');
  }

  /** True the first time it is asked for this key in this database (for notices shown once). */
  firstTime(key: string): boolean {
    const stored = `once:${key}`;
    if (this.s.get.get(stored) !== undefined) return false;
    this.s.set.run(stored, new Date().toISOString());
    return true;
  }
}
