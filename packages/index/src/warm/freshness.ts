/**
 * Freshness records (see warm.ts): what a refresh that saw every file leaves for the next run's one pass of stats,
 * and the generation counter every refresher write transaction bumps.
 */

import { basename, dirname, resolve, sep } from 'node:path';
import type { ListedFolder } from '@agentdash/core';
import { fileStat, isUnder } from '@agentdash/core/base';
import type Database from 'better-sqlite3';
import { pathCond } from '../read/scope.js';
import { SCHEMA_VERSION } from '../schema/schema-version.js';
import type { RefreshReport } from '../types.js';

/** Mark a change of the indexed data: call inside every write transaction that changes it. */
export function bumpGeneration(db: Database.Database): void {
  db.prepare(
    `INSERT INTO warm_state (key, generation, value) VALUES ('generation', 1, '')
     ON CONFLICT (key) DO UPDATE SET generation = generation + 1`,
  ).run();
}

export function generationOf(db: Database.Database): number {
  return (db.prepare("SELECT generation FROM warm_state WHERE key = 'generation'").pluck().get() as number) ?? 0;
}

/** A path's mtime, or null when it does not exist (or cannot be looked at). */
export function mtimeOrNull(path: string): number | null {
  try {
    return fileStat(path)?.mtimeMs ?? null;
  } catch {
    return null;
  }
}

/** The paths a refresh covers, resolved, deduplicated and sorted (the key of its freshness record). */
export function rootsOf(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => resolve(p)))].sort();
}

/** Folder changes this recent (ms) before a refresh started are not vouched for (see `watchedSinceStart`). */
const RACY_MS = 2_000;

export const freshKey = (roots: readonly string[]) => `fresh:${JSON.stringify(roots)}`;

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

export interface FreshnessRecord {
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
export function lastFileId(db: Database.Database): number | null {
  return db.prepare('SELECT max(id) FROM files').pluck().get() as number | null;
}

/**
 * Each file of a record's tree with its stored size, mtime and inode, in order; stops when `visit` returns false
 * (and then returns false).
 */
export function eachTreeFile(
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
