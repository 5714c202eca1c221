/**
 * The warm path: telling, with one cheap pass of stats, that nothing changed since the last refresh, and answers
 * computed once and kept until the index changes. Loads nothing but SQLite and node:fs (no parser, no adapter), so
 * a command on a warm index starts fast.
 *
 * - Every refresher write transaction bumps a generation counter (`bumpGeneration`).
 * - A refresh that saw every file leaves a freshness record for its paths: every folder its discovery listed (or
 *   looked into) and every folder above its files, with their mtimes taken before they were listed (so a file
 *   created while it ran is noticed next time), its files with their stored size, mtime and inode, its counts, the
 *   generation. A file added, removed or renamed changes a folder's mtime (a folder that holds no transcript yet
 *   too); a file appended or rewritten changes its own size or mtime. (Appends leave the folder's mtime as it was:
 *   every file is looked at, none is skipped.)
 * - The record's copy of the file rows is valid while the generation is the same: every write to `files` is in a
 *   refresher transaction. The record also keeps the schema version and the last file id.
 * - Answers (`answer`, `saveAnswer`) are stored with the generation they were computed at.
 *
 * The table (`warm_state`) is a derived one (schema-derived.ts): a rebuild of the derived tables empties it.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ListedFolder } from '@agentdash/core';
import type Database from 'better-sqlite3';
import { SCHEMA_VERSION, schemaIsCurrent } from './schema-version.js';
import { isUnder, pathCond } from './scope.js';
import { Settings } from './settings.js';
import { NativeAddonError, openDatabase } from './sqlite-addon.js';
import type { RefreshOptions, RefreshReport } from './types.js';

export { defaultDbPath } from './db-path.js';

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

/**
 * The stored files on disk under the roots, by folder: a folder, then its files' name, size, mtime and inode in a
 * row (`[dir, [name, size, mtimeMs, ino, name, …], dir, […], …]`): short to store and quick to parse.
 */
export type FileTree = (string | (string | number)[])[];

interface FreshnessRecord {
  readonly archiving: boolean;
  /** The schema version and the highest file id when the record was written (see the module's comment). */
  readonly schema: number;
  readonly lastFileId: number | null;
  /** The bytes of the stored files under the roots, archived ones too (for the progress callback). */
  readonly bytes: number;
  readonly watched: readonly (readonly [string, number | null])[];
  readonly files: FileTree;
  readonly counts: WarmCounts;
}

type FileRow = [path: string, size: number, mtimeMs: number, ino: number, archived: number];

/** The stored files under these roots (archived ones too). */
function storedFilesUnder(db: Database.Database, roots: readonly string[]): FileRow[] {
  const rows = db.prepare('SELECT path, size, mtime_ms, ino, archived FROM files').raw().all() as FileRow[];
  return rows.filter(([path]) => roots.some((root) => isUnder(path, root)));
}

/** The highest file id: a migration that empties `files` and a refresh that adds files both change it. */
function lastFileId(db: Database.Database): number | null {
  return db.prepare('SELECT max(id) FROM files').pluck().get() as number | null;
}

/**
 * Each file of a record's tree with its stored size, mtime and inode, in order; stops when `visit` returns false
 * (and then returns false).
 */
function eachTreeFile(
  files: FileTree,
  visit: (path: string, size: number, mtimeMs: number, ino: number) => boolean,
): boolean {
  for (let d = 0; d < files.length; d += 2) {
    const dir = files[d] as string;
    const prefix = dir.endsWith(sep) ? dir : dir + sep;
    const entries = files[d + 1] as (string | number)[];
    for (let i = 0; i < entries.length; i += 4) {
      const path = prefix + (entries[i] as string);
      if (visit(path, entries[i + 1] as number, entries[i + 2] as number, entries[i + 3] as number) === false) {
        return false;
      }
    }
  }
  return true;
}

/** The files on disk (not archived) by folder, for the record. */
function fileTree(rows: readonly FileRow[]): FileTree {
  const byDir = new Map<string, (string | number)[]>();
  for (const [path, size, mtimeMs, ino, archived] of rows) {
    if (archived === 1) continue;
    const dir = dirname(path);
    const files = byDir.get(dir) ?? [];
    if (files.length === 0) byDir.set(dir, files);
    files.push(basename(path), size, mtimeMs, ino);
  }
  return [...byDir].flat(1);
}

/**
 * A record's tree with the files under `dirs` (folders, or files themselves) replaced by `fresh` (the stored files
 * under them now): the record's folders outside `dirs` are kept as they are, without visiting their files. The
 * folders of `fresh` come last, as when the tree is built again from the record's files and then the fresh ones.
 */
export function renewedTree(files: FileTree, dirs: readonly string[], fresh: FileTree): FileTree {
  const freshByDir = new Map<string, (string | number)[]>();
  for (let d = 0; d < fresh.length; d += 2) freshByDir.set(fresh[d] as string, fresh[d + 1] as (string | number)[]);
  const out: FileTree = [];
  for (let d = 0; d < files.length; d += 2) {
    const dir = files[d] as string;
    if (dirs.some((root) => isUnder(dir, root))) continue;
    let entries = files[d + 1] as (string | number)[];
    // A file refreshed on its own (a path narrower than its folder): that entry goes, its folder's others stay.
    const names = new Set(dirs.filter((root) => dirname(root) === dir).map((root) => basename(root)));
    if (names.size > 0) {
      const kept: (string | number)[] = [];
      for (let i = 0; i < entries.length; i += 4) {
        if (!names.has(entries[i] as string)) kept.push(...entries.slice(i, i + 4));
      }
      entries = kept;
    }
    const added = freshByDir.get(dir);
    if (added !== undefined) {
      entries = [...entries, ...added];
      freshByDir.delete(dir);
    }
    if (entries.length > 0) out.push(dir, entries);
  }
  for (const [dir, entries] of freshByDir) out.push(dir, entries);
  return out;
}

/**
 * Taken at the start of a refresh, before it looks for files: the mtimes of the folders above the files stored so
 * far. `finish` then leaves a freshness record when every folder above the files it stored was among them.
 */
export class FreshnessProbe {
  private readonly roots: string[];
  private readonly before = new Map<string, number | null>();
  private readonly startedAt = Date.now();
  /** The record the folders were taken from (`fromRecord`); undefined for a probe of every stored file. */
  private readonly record: FreshnessRecord | undefined;

  /**
   * `fromRecord`: the folders are those of the current freshness record of these paths (for a refresh of only the
   * files the warm pass saw change: no file came or went, so they are the folders above the stored files), not
   * computed again from every stored file. Without a current record, none are taken (`sameAsRecord` is false).
   */
  constructor(
    private readonly db: Database.Database,
    paths: readonly string[],
    fromRecord = false,
  ) {
    this.roots = rootsOf(paths);
    if (fromRecord) {
      this.record = this.currentRecord();
      for (const [path] of this.record?.watched ?? []) this.before.set(path, mtimeOrNull(path));
      return;
    }
    for (const path of watchedPaths(
      storedFilesUnder(db, this.roots).map(([path]) => path),
      this.roots,
    )) {
      this.before.set(path, mtimeOrNull(path));
    }
  }

  /** The freshness record of these paths, while valid (same generation and schema). */
  private currentRecord(): FreshnessRecord | undefined {
    const row = this.db.prepare('SELECT generation, value FROM warm_state WHERE key = ?').get(freshKey(this.roots)) as
      | { generation: number; value: string }
      | undefined;
    if (row === undefined || row.generation !== generationOf(this.db)) return undefined;
    const record = JSON.parse(row.value) as FreshnessRecord;
    return record.schema === SCHEMA_VERSION ? record : undefined;
  }

  /**
   * Whether the folders, as this probe (taken `fromRecord`) saw them, have the mtimes that the record holds: then no
   * file came or went since the pass of stats that read the record (`WarmIndex.check`). A refresh of only the
   * changed files relies on it. False without a record.
   */
  sameAsRecord(): boolean {
    return this.record?.watched.every(([path, mtime]) => this.before.get(path) === mtime) ?? false;
  }

  /**
   * After a refresh of only some folders (`dirs`) of these paths, on a probe taken from the record that
   * `sameAsRecord` vouched for: the record again, with the stored files under those folders as they are now and the
   * rest as it was (no other file changed: the warm pass looked at every one). The folders above the files are the
   * record's, with the mtimes this probe saw, unless a file now stored is under a folder the record does not watch
   * (then `finish` decides from every stored file).
   */
  finishChanged(dirs: readonly string[], complete: boolean, archiving: boolean, counts: WarmCounts): void {
    const record = this.record;
    if (record === undefined || !complete) {
      this.finish(complete, archiving, counts);
      return;
    }
    const key = freshKey(this.roots);
    const renewed = this.db
      .transaction(() => {
        const cond = pathCond(dirs, 'f');
        const rows = this.db
          .prepare(`SELECT path, size, mtime_ms, ino, archived FROM files f WHERE ${cond.sql}`)
          .raw()
          .all(...cond.params) as FileRow[];
        const watched = new Set(record.watched.map(([path]) => path));
        for (const path of watchedPaths(
          rows.map(([path]) => path),
          this.roots,
        )) {
          if (!watched.has(path)) return false;
        }
        // Archived files (gone from disk) count too, as in `finish`.
        const inRoots = pathCond(this.roots, 'f');
        const bytes = this.db
          .prepare(`SELECT coalesce(sum(f.size), 0) FROM files f WHERE ${inRoots.sql}`)
          .pluck()
          .get(...inRoots.params) as number;
        const next: FreshnessRecord = {
          archiving,
          schema: SCHEMA_VERSION,
          lastFileId: lastFileId(this.db),
          bytes,
          watched: record.watched.map(([path]) => [path, this.before.get(path) ?? null] as const),
          files: renewedTree(record.files, dirs, fileTree(rows)),
          counts,
        };
        this.store(key, next);
        return true;
      })
      .immediate();
    if (!renewed) this.finish(complete, archiving, counts);
  }

  /**
   * Store (or, when it cannot vouch for them, drop) the freshness record of these paths. `complete` is false when
   * the refresh met a file or folder it could not read: then every refresh looks again.
   */
  finish(complete: boolean, archiving: boolean, counts: WarmCounts, listed: readonly ListedFolder[] = []): void {
    const key = freshKey(this.roots);
    // Immediate: the files and the generation are read under the write lock (a read first would also make the
    // write fail at once, not wait, after another process's commit).
    this.db
      .transaction(() => {
        const rows = storedFilesUnder(this.db, this.roots);
        const watched = complete
          ? this.watchedSinceStart(
              rows.map(([path]) => path),
              listed,
            )
          : undefined;
        if (watched === undefined) {
          this.db.prepare('DELETE FROM warm_state WHERE key = ?').run(key);
          return;
        }
        const record: FreshnessRecord = {
          archiving,
          schema: SCHEMA_VERSION,
          lastFileId: lastFileId(this.db),
          bytes: rows.reduce((n, [, size]) => n + size, 0),
          watched,
          files: fileTree(rows),
          counts,
        };
        this.store(key, record);
      })
      .immediate();
  }

  /** Store a record at the current generation (inside a write transaction). */
  private store(key: string, record: FreshnessRecord): void {
    const generation = generationOf(this.db);
    // Records of an older generation can never be used again (one is kept per set of paths ever refreshed).
    this.db.prepare("DELETE FROM warm_state WHERE key LIKE 'fresh:%' AND generation <> ?").run(generation);
    this.db
      .prepare('INSERT OR REPLACE INTO warm_state (key, generation, value) VALUES (?, ?, ?)')
      .run(key, generation, JSON.stringify(record));
  }

  /**
   * The paths to watch: the folders above these files and every folder the refresh's discovery listed (`listed`: one
   * that holds no transcript yet too, where a new one would change nothing else), each with its mtime before it was
   * listed (else at the start); undefined when one cannot be vouched for: a folder above a file neither seen at the
   * start nor listed, or one that changed just before the start.
   */
  private watchedSinceStart(
    files: readonly string[],
    listed: readonly ListedFolder[],
  ): [string, number | null][] | undefined {
    const listedAt = new Map(listed);
    const watched: [string, number | null][] = [];
    for (const path of new Set([...watchedPaths(files, this.roots), ...listedAt.keys()])) {
      const mtime = listedAt.get(path) ?? this.before.get(path);
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
const NO_THROW = { throwIfNoEntry: false } as const;

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

/**
 * better-sqlite3's compiled addon, named: its default finder (the `bindings` package) reads the call stack and tries
 * a dozen paths first, a cost a warm command feels. Only the usual place of a release build; else the default finder.
 */
function addon(): { nativeBinding?: string } {
  try {
    const lib = fileURLToPath(import.meta.resolve('better-sqlite3'));
    const build = join(dirname(lib), '..', 'build');
    const release = join(build, 'Release', 'better_sqlite3.node');
    // The finder prefers build/better_sqlite3.node and a Debug build: then it decides.
    if (existsSync(release) && !existsSync(join(build, 'Debug')) && !existsSync(join(build, 'better_sqlite3.node'))) {
      return { nativeBinding: release };
    }
  } catch {
    // Not resolvable as a file: the default finder.
  }
  return {};
}

/** What one pass of stats tells of some paths since their last refresh (`WarmIndex.check`). */
export type Freshness =
  | { readonly kind: 'fresh'; readonly report: RefreshReport }
  | { readonly kind: 'changed'; readonly files: readonly string[] }
  | { readonly kind: 'unknown' };

const UNKNOWN: Freshness = { kind: 'unknown' };

/** A light connection to the index for the warm path. */
export class WarmIndex {
  /** The user's stored choices (archiving, notices shown once). */
  readonly settings: Settings;

  private constructor(private readonly db: Database.Database) {
    this.settings = new Settings(db);
  }

  /**
   * Open the index for the warm path; undefined when there is none yet, or it has another schema or derived version
   * (the full index opens, migrates or rebuilds it).
   */
  static open(dbPath: string): WarmIndex | undefined {
    if (dbPath === ':memory:') return undefined;
    let db: Database.Database | undefined;
    try {
      // No wait for a writer's lock: readers never wait in WAL mode, and a stored answer is only a shortcut.
      db = openDatabase(dbPath, { fileMustExist: true, timeout: 0, ...addon() });
      if (schemaIsCurrent(db)) return new WarmIndex(db);
    } catch (error) {
      // An addon this Node.js cannot load is the user's to rebuild (the full index would only fail again, saying less).
      if (error instanceof NativeAddonError) throw error;
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
    const checked = this.check(paths, options);
    return checked.kind === 'fresh' ? checked.report : undefined;
  }

  /**
   * What one pass of stats tells of these paths since the last refresh that covered them: nothing changed (the
   * refresh's report, as `fresh` gives it), only some stored files changed (grown or rewritten, still readable, no
   * folder changed: a refresh needs to read only those, `RefreshOptions.changedFiles`), or unknown (a full refresh).
   */
  check(paths: readonly string[], options: Pick<RefreshOptions, 'archive' | 'onProgress'> = {}): Freshness {
    const checked = this.shortcut(() => this.freshNow(rootsOf(paths), options.archive));
    if (checked === undefined) return UNKNOWN;
    if (checked.changed.length > 0) return { kind: 'changed', files: checked.changed };
    const { report, bytes } = checked;
    options.onProgress?.({
      done: report.files,
      total: report.files,
      file: '',
      filesDone: report.files,
      filesTotal: report.files,
      bytesDone: bytes,
      bytesTotal: bytes,
    });
    return { kind: 'fresh', report };
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
  ): { report: RefreshReport; bytes: number; changed: string[] } | undefined {
    return this.db.transaction(() => {
      const row = this.db.prepare('SELECT generation, value FROM warm_state WHERE key = ?').get(freshKey(roots)) as
        | { generation: number; value: string }
        | undefined;
      if (row === undefined || row.generation !== generationOf(this.db)) return undefined;
      const record = JSON.parse(row.value) as FreshnessRecord;
      if (record.schema !== SCHEMA_VERSION || record.lastFileId !== lastFileId(this.db)) return undefined;
      if (record.archiving !== (archiving ?? this.settings.archiving())) return undefined;
      for (const [path, mtime] of record.watched) if (mtimeOrNull(path) !== mtime) return undefined;
      // Every file on disk, appended or not. (A file kept from the archive is gone from disk: it is not in the tree,
      // and its coming back changes a watched folder.) One that grew or was rewritten is noted; one gone or
      // unreadable needs a full refresh.
      const changed: string[] = [];
      const seen = eachTreeFile(record.files, (path, size, mtimeMs, ino) => {
        const info = statSync(path, NO_THROW);
        if (info === undefined || !readable(path, info)) return false;
        if (info.size !== size || info.mtimeMs !== mtimeMs || info.ino !== ino) changed.push(path);
        return true;
      });
      if (!seen) return undefined;
      const bytes = record.bytes;
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
      return { report, bytes, changed };
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

  /**
   * Whether the archive holds files under this path (as the full index's `hasArchivedFilesUnder`); undefined when
   * the database cannot tell now.
   */
  hasArchivedFilesUnder(path: string): boolean | undefined {
    return this.shortcut(() => {
      const cond = pathCond([path], 'f');
      return (
        this.db.prepare(`SELECT 1 FROM archive_files f WHERE ${cond.sql} LIMIT 1`).get(...cond.params) !== undefined
      );
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
