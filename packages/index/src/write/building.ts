/**
 * A first index of a large home takes minutes, in batches of half a second: a command run meanwhile in another
 * process would wait for each batch and then read the rest itself (minutes, beside a cold `serve`). The
 * process that builds says so in the database, with its progress, on each commit; a reading command asked to
 * (`RefreshOptions.partialWhileBuilding`) then answers at once from what is committed, and says it is partial.
 */
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';

/** How far another process's build has come (files handled of the files it found). */
export interface BuildProgress {
  readonly pid: number;
  readonly filesDone: number;
  readonly filesTotal: number;
}

interface BuildRow extends BuildProgress {
  readonly host: string;
  /** When the row was last written (ms since the epoch). */
  readonly at: number;
}

const KEY = 'building';
/** A row of another machine (a database on a shared disk) counts while it was written this recently. */
const STALE_MS = 2 * 60_000;

/** Record this process's build progress (inside the writer's transaction, with its batch). */
export function noteBuilding(db: Database.Database, progress: Omit<BuildProgress, 'pid'>): void {
  const row: BuildRow = { pid: process.pid, host: hostname(), at: Date.now(), ...progress };
  db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(KEY, JSON.stringify(row));
}

/** This process's build is over: its row goes (another process's row is left alone). */
export function clearBuilding(db: Database.Database): void {
  const row = readRow(db);
  if (row !== undefined && row.pid === process.pid && row.host === hostname()) {
    db.prepare('DELETE FROM settings WHERE key = ?').run(KEY);
  }
}

/**
 * The build another process is running on this database, from its last commit; undefined when none is (no row,
 * this process's own, or its process is gone: killed mid-build, it left its row).
 */
export function buildingElsewhere(db: Database.Database): BuildProgress | undefined {
  const row = readRow(db);
  if (row === undefined) return undefined;
  if (row.host !== hostname()) return Date.now() - row.at < STALE_MS ? row : undefined;
  if (row.pid === process.pid || !isAlive(row.pid)) return undefined;
  return { pid: row.pid, filesDone: row.filesDone, filesTotal: row.filesTotal };
}

function readRow(db: Database.Database): BuildRow | undefined {
  const value = db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(KEY) as string | undefined;
  if (value === undefined) return undefined;
  try {
    const row = JSON.parse(value) as Partial<BuildRow>;
    return typeof row.pid === 'number' &&
      typeof row.host === 'string' &&
      typeof row.at === 'number' &&
      typeof row.filesDone === 'number' &&
      typeof row.filesTotal === 'number'
      ? (row as BuildRow)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process of this id runs on this machine (signal 0 tests it; EPERM: it runs as someone else). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
