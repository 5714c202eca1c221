/**
 * The warm path: telling, with one cheap pass of stats, that nothing changed since the last refresh, and answers
 * computed once and kept until the index changes. Loads nothing but SQLite and node:fs (no parser, no adapter), so
 * a command on a warm index starts fast.
 *
 * - Every refresher write transaction bumps a generation counter (`bumpGeneration`).
 * - A refresh that saw every file leaves a freshness record for its paths: the folders above its files with their
 *   mtimes (taken before it looked for files, so a file created while it ran is noticed next time), its counts, the
 *   generation. A file added, removed or renamed changes a folder's mtime; a file appended or rewritten changes its
 *   own size or mtime (compared with the stored row).
 * - Answers (`answer`, `saveAnswer`) are stored with the generation they were computed at.
 *
 * The table (`warm_state`) and the index over `files` are created apart from the versioned migrations: they hold
 * nothing that cannot be recomputed, and a database without them simply has no warm path until a refresh creates
 * them.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION } from './schema.js';
import { isUnder } from './scope.js';
import { Settings } from './settings.js';
import type { RefreshOptions, RefreshReport } from './types.js';

export { defaultDbPath } from './db-path.js';

const CREATE = `CREATE TABLE IF NOT EXISTS warm_state (
  key TEXT PRIMARY KEY,
  generation INTEGER NOT NULL,
  value TEXT NOT NULL
) WITHOUT ROWID`;

/**
 * The freshness pass reads these columns of every file: from a covering index it reads a few pages, not the whole
 * table (about 60 ms less for 10,000 files).
 */
const CREATE_INDEX = 'CREATE INDEX IF NOT EXISTS files_freshness ON files (path, size, mtime_ms, ino, archived)';

/** Which of the warm path's table and index the database has. */
function warmStateOf(db: Database.Database): Set<string> {
  const names = db.prepare("SELECT name FROM sqlite_master WHERE name IN ('warm_state', 'files_freshness')").pluck();
  return new Set(names.all() as string[]);
}

/** Create the warm-path table and index when they are missing (a write only then). */
export function ensureWarmState(db: Database.Database): void {
  const present = warmStateOf(db);
  if (!present.has('warm_state')) db.exec(CREATE);
  if (!present.has('files_freshness')) db.exec(CREATE_INDEX);
}

/** Mark a change of the indexed data: call inside every write transaction that changes it. */
export function bumpGeneration(db: Database.Database): void {
  db.prepare(
    `INSERT INTO warm_state (key, generation, value) VALUES ('generation', 1, '')
     ON CONFLICT (key) DO UPDATE SET generation = generation + 1`,
  ).run();
}

function generationOf(db: Database.Database): number {
  return (db.prepare("SELECT generation FROM warm_state WHERE key = 'generation'").pluck().get() as number) ?? 0;
}

/** A path's mtime, or null when it does not exist (or cannot be looked at). */
function mtimeOrNull(path: string): number | null {
  try {
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? null;
  } catch {
    return null;
  }
}

/** The paths a refresh covers, resolved, deduplicated and sorted (the key of its freshness record). */
function rootsOf(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => resolve(p)))].sort();
}

/** Folder changes this recent (ms) before a refresh started are not vouched for (see `watchedSinceStart`). */
const RACY_MS = 2_000;

const freshKey = (roots: readonly string[]) => `fresh:${JSON.stringify(roots)}`;

/**
 * The paths whose mtimes tell that no file came or went: each root, and every folder between a stored file and the
 * root it is under (a file created anywhere below changes one of them: its folder, or the nearest one that existed).
 */
function watchedPaths(files: readonly string[], roots: readonly string[]): Set<string> {
  const out = new Set<string>(roots);
  for (const path of files) {
    for (const root of roots) {
      if (path === root || !isUnder(path, root)) continue;
      for (let dir = dirname(path); dir !== root && !out.has(dir) && isUnder(dir, root); dir = dirname(dir)) {
        out.add(dir);
      }
    }
  }
  return out;
}

/** What a refresh counted, stored with its freshness record and given back as the report of a warm run. */
export type WarmCounts = Pick<RefreshReport, 'files' | 'issues' | 'sessions' | 'archivedFiles'>;

interface FreshnessRecord {
  readonly archiving: boolean;
  /** Stored file rows under the roots. */
  readonly fileCount: number;
  readonly watched: readonly (readonly [string, number | null])[];
  readonly counts: WarmCounts;
}

/** Paths of the stored files under these roots (archived ones too), for the freshness pass. */
function storedPathsUnder(db: Database.Database, roots: readonly string[]): string[] {
  const paths = db.prepare('SELECT path FROM files').pluck().all() as string[];
  return paths.filter((path) => roots.some((root) => isUnder(path, root)));
}

/**
 * Taken at the start of a refresh, before it looks for files: the mtimes of the folders above the files stored so
 * far. `finish` then leaves a freshness record when every folder above the files it stored was among them.
 */
export class FreshnessProbe {
  private readonly roots: string[];
  private readonly before = new Map<string, number | null>();
  private readonly startedAt = Date.now();

  constructor(
    private readonly db: Database.Database,
    paths: readonly string[],
  ) {
    this.roots = rootsOf(paths);
    for (const path of watchedPaths(storedPathsUnder(db, this.roots), this.roots)) {
      this.before.set(path, mtimeOrNull(path));
    }
  }

  /**
   * Store (or, when it cannot vouch for them, drop) the freshness record of these paths. `complete` is false when
   * the refresh met a file or folder it could not read: then every refresh looks again.
   */
  finish(complete: boolean, archiving: boolean, counts: WarmCounts): void {
    const key = freshKey(this.roots);
    // Immediate: the files and the generation are read under the write lock (a read first would also make the
    // write fail at once, not wait, after another process's commit).
    this.db
      .transaction(() => {
        const files = storedPathsUnder(this.db, this.roots);
        const watched = complete ? this.watchedSinceStart(files) : undefined;
        if (watched === undefined) {
          this.db.prepare('DELETE FROM warm_state WHERE key = ?').run(key);
          return;
        }
        const record: FreshnessRecord = { archiving, fileCount: files.length, watched, counts };
        const generation = generationOf(this.db);
        // Records of an older generation can never be used again (one is kept per set of paths ever refreshed).
        this.db.prepare("DELETE FROM warm_state WHERE key LIKE 'fresh:%' AND generation <> ?").run(generation);
        this.db
          .prepare('INSERT OR REPLACE INTO warm_state (key, generation, value) VALUES (?, ?, ?)')
          .run(key, generation, JSON.stringify(record));
      })
      .immediate();
  }

  /** The watched paths above these files with their mtimes at the start; undefined when one was not seen then. */
  private watchedSinceStart(files: readonly string[]): [string, number | null][] | undefined {
    const watched: [string, number | null][] = [];
    for (const path of watchedPaths(files, this.roots)) {
      const mtime = this.before.get(path);
      // A folder first seen now: its files may have been listed after a change the start did not see.
      if (mtime === undefined || (mtime === null && mtimeOrNull(path) !== null)) return undefined;
      // Changed just before the start: where mtimes are coarse (1 or 2 s), a file added within the same tick would
      // leave the same mtime. The next refresh vouches for it.
      if (mtime !== null && mtime > this.startedAt - RACY_MS) return undefined;
      watched.push([path, mtime]);
    }
    return watched;
  }
}

const uid = process.getuid?.();

/** Whether this process can read a file, from its stat where that is certain (else asks the system). */
function readable(path: string, info: { readonly uid: number; readonly mode: number }): boolean {
  if (uid === undefined || uid === 0) return true;
  if (info.uid === uid) return (info.mode & 0o400) !== 0;
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** A light connection to the index for the warm path. */
export class WarmIndex {
  /** The user's stored choices (archiving, notices shown once). */
  readonly settings: Settings;

  private constructor(private readonly db: Database.Database) {
    this.settings = new Settings(db);
  }

  /**
   * Open the index for the warm path; undefined when there is none yet, or it has another schema version or not the
   * warm path's table and index (the full index opens, migrates or rebuilds it, and creates them).
   */
  static open(dbPath: string): WarmIndex | undefined {
    if (dbPath === ':memory:') return undefined;
    let db: Database.Database | undefined;
    try {
      // No wait for a writer's lock: readers never wait in WAL mode, and a stored answer is only a shortcut.
      db = new Database(dbPath, { fileMustExist: true, timeout: 0 });
      const ready =
        (db.pragma('user_version', { simple: true }) as number) === SCHEMA_VERSION && warmStateOf(db).size === 2;
      if (ready) return new WarmIndex(db);
    } catch {
      // Missing, locked by a migration, corrupt: the full index deals with it.
    }
    db?.close();
    return undefined;
  }

  /**
   * The report of a refresh of these paths when one pass of stats shows that nothing changed since the last
   * refresh that covered them (no file added, removed, renamed, grown, rewritten or made unreadable); undefined when
   * a refresh is needed. Takes a refresh's `archive` (default: the stored setting) and `onProgress` (called once,
   * all done, when fresh).
   */
  fresh(
    paths: readonly string[],
    options: Pick<RefreshOptions, 'archive' | 'onProgress'> = {},
  ): RefreshReport | undefined {
    const fresh = this.shortcut(() => this.freshNow(rootsOf(paths), options.archive));
    if (fresh !== undefined) {
      const { report, bytes } = fresh;
      options.onProgress?.({
        done: report.files,
        total: report.files,
        file: '',
        filesDone: report.files,
        filesTotal: report.files,
        bytesDone: bytes,
        bytesTotal: bytes,
      });
    }
    return fresh?.report;
  }

  /** A shortcut's result, or undefined when it fails (a busy or damaged database): the full path then decides. */
  private shortcut<T>(run: () => T | undefined): T | undefined {
    try {
      return run();
    } catch {
      return undefined;
    }
  }

  private freshNow(
    roots: readonly string[],
    archiving: boolean | undefined,
  ): { report: RefreshReport; bytes: number } | undefined {
    return this.db.transaction(() => {
      const row = this.db.prepare('SELECT generation, value FROM warm_state WHERE key = ?').get(freshKey(roots)) as
        | { generation: number; value: string }
        | undefined;
      if (row === undefined || row.generation !== generationOf(this.db)) return undefined;
      const record = JSON.parse(row.value) as FreshnessRecord;
      if (record.archiving !== (archiving ?? this.settings.archiving())) return undefined;
      for (const [path, mtime] of record.watched) if (mtimeOrNull(path) !== mtime) return undefined;
      const files = this.db.prepare('SELECT path, size, mtime_ms, ino, archived FROM files').raw().all() as [
        string,
        number,
        number,
        number,
        number,
      ][];
      let count = 0;
      let bytes = 0;
      for (const [path, size, mtimeMs, ino, archived] of files) {
        if (!roots.some((root) => isUnder(path, root))) continue;
        count += 1;
        bytes += size;
        // A file kept from the archive is gone from disk; its coming back changes a watched folder.
        if (archived === 1) continue;
        const info = statSync(path, { throwIfNoEntry: false });
        if (info?.size !== size || info.mtimeMs !== mtimeMs || info.ino !== ino || !readable(path, info)) {
          return undefined;
        }
      }
      if (count !== record.fileCount) return undefined;
      const { files: total, issues, sessions, archivedFiles } = record.counts;
      // The same keys in the same order as a refresh's report.
      const report = {
        files: total,
        filesParsed: 0,
        bytesParsed: 0,
        records: 0,
        issues,
        newIssues: 0,
        filesRemoved: 0,
        sessions,
        archivedFiles,
      };
      return { report, bytes };
    })();
  }

  /** A stored answer still valid (computed at the current generation), parsed; undefined when there is none. */
  answer<T>(key: string): T | undefined {
    return this.shortcut(() => {
      const row = this.db.prepare('SELECT generation, value FROM warm_state WHERE key = ?').get(`answer:${key}`) as
        | { generation: number; value: string }
        | undefined;
      return row === undefined || row.generation !== generationOf(this.db) ? undefined : (JSON.parse(row.value) as T);
    });
  }

  /** The current generation, to pass to `saveAnswer` for an answer computed after reading it. */
  generation(): number | undefined {
    return this.shortcut(() => generationOf(this.db));
  }

  /** Keep an answer computed at `generation` (answers of older generations go). Never fails: it is a shortcut. */
  saveAnswer(key: string, generation: number, value: unknown): void {
    try {
      this.db
        .transaction(() => {
          this.db.prepare("DELETE FROM warm_state WHERE key LIKE 'answer:%' AND generation <> ?").run(generation);
          this.db
            .prepare('INSERT OR REPLACE INTO warm_state (key, generation, value) VALUES (?, ?, ?)')
            .run(`answer:${key}`, generation, JSON.stringify(value));
        })
        .immediate();
    } catch {
      // Busy (another process writes) or read-only: answered without keeping it.
    }
  }

  close(): void {
    this.db.close();
  }
}
