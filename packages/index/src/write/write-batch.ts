/**
 * The batch policy of a refresh's writes: one write transaction holds several files (one savepoint each), and the
 * calls and sessions they touched are recomputed once per batch, when it commits.
 */
import type Database from 'better-sqlite3';
import { OtherBuildError } from '../errors.js';
import type { ReadRecords } from '../file-row.js';
import { DERIVED_VERSION, derivedVersionOf } from '../schema/schema-version.js';
import { bumpGeneration } from '../warm/freshness.js';
import { clearBuilding, noteBuilding } from './building.js';
import type { Writer } from './import.js';
import type { SessionUpdater } from './sessions.js';

/**
 * A batch ends after this many bytes or milliseconds, so other processes wait for the write lock at most about that
 * long and see the index fill as it goes.
 */
const BATCH_BYTES = 32 * 1024 * 1024;
const BATCH_MS = 500;

/** What one write transaction has touched so far. */
export interface Batch {
  readonly touched: Set<string>;
  readonly sessions: Set<string>;
  bytes: number;
  readonly startedAt: number;
}

/** The progress of a build a refresh announces to other processes (building.ts), written on each commit. */
interface Building {
  filesDone: number;
  readonly filesTotal: number;
}

/** The open batch of one connection, begun on the first write and committed by the policy above. */
export class WriteBatches {
  private batch: Batch | undefined;
  private building: Building | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly writer: Writer,
    private readonly updater: SessionUpdater,
    /** Records of stored calls and results read back (facts no parse worker computed). */
    private readonly readRecords: ReadRecords,
  ) {}

  /** The open batch, begun (`BEGIN IMMEDIATE`) when there is none. */
  begin(): Batch {
    if (this.batch === undefined) {
      this.db.exec('BEGIN IMMEDIATE');
      // under the write lock: another version's process may have rebuilt the derived tables since this one opened
      const found = derivedVersionOf(this.db);
      if (found !== DERIVED_VERSION) {
        this.db.exec('ROLLBACK');
        throw new OtherBuildError(this.db.name, found, DERIVED_VERSION);
      }
      this.batch = { touched: new Set(), sessions: new Set(), bytes: 0, startedAt: Date.now() };
    }
    return this.batch;
  }

  /** Recompute what the batch touched and commit it. */
  async commit(): Promise<void> {
    const batch = this.batch;
    if (batch === undefined) return;
    try {
      await this.writer.recomputeCalls(batch.touched, batch.sessions, this.readRecords);
      for (const sid of batch.sessions) this.updater.recompute(sid);
      this.updater.settle();
      this.writer.flushTexts();
      if (this.building !== undefined) noteBuilding(this.db, this.building);
      bumpGeneration(this.db);
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      this.batch = undefined;
      this.writer.endTransaction();
    }
  }

  /**
   * A file of `batch` was imported (`bytes` read): commit when the batch is full or old, or when it is the first file
   * the refresh parsed (on a new index, the newest session is listed while the rest is read).
   */
  async fileDone(batch: Batch, bytes: number, firstParsed: boolean): Promise<void> {
    batch.bytes += bytes;
    if ((this.batch === batch && batch.bytes >= BATCH_BYTES) || Date.now() - batch.startedAt >= BATCH_MS || firstParsed)
      await this.commit();
  }

  /** Announce a long build to other processes, committed at once. */
  async announceBuilding(filesTotal: number): Promise<void> {
    this.building = { filesDone: 0, filesTotal };
    this.begin();
    await this.commit();
  }

  /** Files done of the announced build (written with the next commit). */
  noteProgress(filesDone: number): void {
    if (this.building !== undefined) this.building.filesDone = filesDone;
  }

  /** The announced build is over (or failed): its row goes. Never throws (the connection may be closed). */
  endBuilding(): void {
    if (this.building === undefined) return;
    this.building = undefined;
    try {
      this.db.transaction(() => clearBuilding(this.db)).immediate();
    } catch {
      // Closed under the refresh (a server stopped): readers see its process gone.
    }
  }
}

/**
 * Keep the statement journals of a first index's savepoints (one per file) in memory, not in temporary files: a
 * savepoint copies each page it is the first to change (the files row's pages, the archive's, every index's leaf),
 * and those copies were most of a cold index's writes. Only on a first
 * index, where a file's savepoint holds at most the shared pages its import changes: a later refresh may re-read or
 * drop a large file, whose every stored page its savepoint would copy. Only while the refresh runs: elsewhere a
 * large sort spills to a temporary file as usual. Returns what puts the setting back.
 */
export function journalsInMemory(db: Database.Database): () => void {
  if (db.inTransaction) return () => {};
  const before = db.pragma('temp_store', { simple: true }) as number;
  db.pragma('temp_store = MEMORY');
  return () => {
    try {
      if (db.open && !db.inTransaction) db.pragma(`temp_store = ${before}`);
    } catch {
      // The connection closed or busy: the setting goes with it (it is never stored in the file).
    }
  };
}

/**
 * On a first index, let the WAL grow while the refresh runs and copy it into the database once, at the end. With
 * SQLite's default (a checkpoint at every commit that finds 1000 pages in the WAL) the pages that every batch changes
 * again (the tables' and the full-text index's upper pages and last leaves) were copied into the database file at
 * each of many checkpoints, each with its fsync. The WAL is truncated at the end, so that its file does not stay the
 * size of the whole build. Returns what puts the setting back and checkpoints.
 */
export function checkpointAtEnd(db: Database.Database): () => void {
  if (db.inTransaction) return () => {};
  const before = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  db.pragma('wal_autocheckpoint = 0');
  return () => {
    try {
      if (!db.open || db.inTransaction) return;
      db.pragma(`wal_autocheckpoint = ${before}`);
      // Without waiting: a pending full checkpoint would hold other processes' writers back while it waits for
      // readers. Busy, it copies what it can, and the next commit past the limit checkpoints as usual.
      const timeout = db.pragma('busy_timeout', { simple: true }) as number;
      db.pragma('busy_timeout = 0');
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.pragma(`busy_timeout = ${timeout}`);
      }
    } catch {
      // The connection closed or busy: the next commit past the limit checkpoints as usual.
    }
  };
}
