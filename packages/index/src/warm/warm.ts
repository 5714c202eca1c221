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
import { accessSync, constants } from 'node:fs';
import { fileStat } from '@agentdash/core/base';
import type { PriceTable } from '@agentdash/core/usage';
import type Database from 'better-sqlite3';
import { compressChunk, decompressPieces } from '../archive/archive-codec.js';
import { hasArchivedFilesUnder } from '../read/archived-under.js';
import { listSessions, sessionIdsOf } from '../read/session-summaries.js';
import { SCHEMA_VERSION, schemaIsCurrent } from '../schema/schema-version.js';
import { Settings } from '../schema/settings.js';
import { NativeAddonError, openDatabase } from '../schema/sqlite-addon.js';
import { createMeasuredQueries, type MeasuredSession } from '../telemetry/measured.js';
import { MEASURED_RUN } from '../telemetry/schema.js';
import type { RefreshOptions, RefreshReport, SessionFilter, SessionSummary } from '../types.js';

export { explainDamage } from '../errors.js';
export { defaultDbPath } from '../schema/db-path.js';

import {
  eachTreeFile,
  type FreshnessRecord,
  freshKey,
  generationOf,
  lastFileId,
  mtimeOrNull,
  rootsOf,
} from './freshness.js';

// What a warm command's output needs of telemetry (without the full index behind `@agentdash/index`).
export { addMeasured, type MeasuredSession } from '../telemetry/measured.js';
export {
  bumpGeneration,
  type FileTree,
  FreshnessProbe,
  renewedTree,
  type WarmCounts,
} from './freshness.js';

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

/** What one pass of stats tells of some paths since their last refresh (`WarmIndex.check`). */
export type Freshness =
  | { readonly kind: 'fresh'; readonly report: RefreshReport }
  | { readonly kind: 'changed'; readonly files: readonly string[] }
  | { readonly kind: 'unknown' };

const UNKNOWN: Freshness = { kind: 'unknown' };

/**
 * A stored output's bytes, decompressed as they are written: `pieces(reuse)` gives them in order, each in the buffer
 * of the piece before while `reuse()` (asked once that piece is written) says the writer keeps no reference to it.
 */
export interface StoredOutput {
  pieces(reuse: () => boolean): Iterable<Uint8Array>;
}

/** A stored output's pieces (`StoredOutput`): 2 to this power bytes, zstd's window when it is written too. */
const OUTPUT_LOG = 18;
const OUTPUT_PIECE = 2 ** OUTPUT_LOG;

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
      db = openDatabase(dbPath, { fileMustExist: true, timeout: 0 });
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
        const info = fileStat(path);
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
      const value = this.stored(key);
      return typeof value === 'string' ? (JSON.parse(value) as T) : undefined;
    });
  }

  /**
   * A stored output (`saveOutput`) still valid, to write out piece by piece (`StoredOutput`); undefined when there is
   * none or it cannot be read (its codec not loadable here, damaged: decompressed once to see, into one small
   * buffer): the command then computes it again.
   */
  output(key: string): StoredOutput | undefined {
    return this.shortcut(() => {
      const value = this.stored(key);
      if (!Buffer.isBuffer(value) || value.length === 0) return undefined;
      const codec = value[0] ?? -1;
      const data = value.subarray(1);
      const pieces = (reuse: () => boolean) => decompressPieces(codec, data, OUTPUT_PIECE, reuse);
      for (const _ of pieces(() => true));
      return { pieces };
    });
  }

  private stored(key: string): string | Buffer | undefined {
    const row = this.db.prepare('SELECT generation, value FROM warm_state WHERE key = ?').get(`answer:${key}`) as
      | { generation: number; value: string | Buffer }
      | undefined;
    return row === undefined || row.generation !== generationOf(this.db) ? undefined : row.value;
  }

  /**
   * Whether the archive holds files under this path (as the full index's `hasArchivedFilesUnder`); undefined when
   * the database cannot tell now.
   */
  hasArchivedFilesUnder(path: string): boolean | undefined {
    return this.shortcut(() => hasArchivedFilesUnder(this.db, path));
  }

  /** The paths the index was built from (as the full index's `namedRoots`); undefined when it cannot tell now. */
  namedRoots(): string[] | undefined {
    return this.shortcut(() => this.settings.namedRoots());
  }

  /**
   * Whether telemetry holds a measured tool run (what `TelemetryStore.measuredToolRuns` lists); undefined when the
   * database cannot tell now.
   */
  hasMeasuredToolRuns(): boolean | undefined {
    return this.shortcut(() => {
      if (!this.hasTelemetry()) return false;
      return this.db.prepare(`SELECT 1 FROM otel_events WHERE ${MEASURED_RUN} LIMIT 1`).get() !== undefined;
    });
  }

  /** What telemetry measured per session (as `TelemetryStore.measuredBySession`); undefined when it cannot tell now. */
  measuredBySession(): Map<string, MeasuredSession> | undefined {
    return this.shortcut(() => (this.hasTelemetry() ? createMeasuredQueries(this.db).measuredBySession() : new Map()));
  }

  private hasTelemetry(): boolean {
    const tables = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'otel_events'");
    return tables.get() !== undefined;
  }

  /**
   * The sessions the filter selects, as the full index lists them (`AgentIndex.listSessions`, costs at `prices`,
   * liveness at `now`); undefined when the database cannot tell now. For an index this run did not need to refresh.
   */
  listSessions(filter: SessionFilter, prices: PriceTable, now: () => number): SessionSummary[] | undefined {
    // One read transaction: the sessions and their files as of one commit.
    return this.shortcut(() => this.db.transaction(() => listSessions({ db: this.db, prices, now }, filter))());
  }

  /** Every session id the index holds (`AgentIndex.sessionIds`); undefined when the database cannot tell now. */
  sessionIds(): string[] | undefined {
    return this.shortcut(() => sessionIdsOf({ db: this.db }));
  }

  /** The current generation, to pass to `saveAnswer` for an answer computed after reading it. */
  generation(): number | undefined {
    return this.shortcut(() => generationOf(this.db));
  }

  /** Keep an answer computed at `generation` (answers of older generations go). Never fails: it is a shortcut. */
  saveAnswer(key: string, generation: number, value: unknown): void {
    this.keep(key, generation, JSON.stringify(value));
  }

  /**
   * `saveAnswer` of a command's whole output, for `output`: compressed as the archive's chunks are (zstd where it
   * loads, else brotli), its codec in the first byte. A stored output is mostly read back whole at every warm run, so
   * its decompression is what counts: zstd's is several times brotli's on the same bytes.
   */
  saveOutput(key: string, generation: number, text: string): void {
    const { codec, data } = compressChunk(Buffer.from(text), undefined, OUTPUT_LOG);
    this.keep(key, generation, Buffer.concat([Uint8Array.of(codec), data]));
  }

  private keep(key: string, generation: number, value: string | Uint8Array): void {
    try {
      this.db
        .transaction(() => {
          this.db.prepare("DELETE FROM warm_state WHERE key LIKE 'answer:%' AND generation <> ?").run(generation);
          this.db
            .prepare('INSERT OR REPLACE INTO warm_state (key, generation, value) VALUES (?, ?, ?)')
            .run(`answer:${key}`, generation, value);
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
