/** Bringing the index up to date with the transcript files on disk: discover, drop what is gone, read what grew. */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type DiscoveredFile,
  type OpenBytes,
  openFileBytes,
  type ParseIssue,
  type ReadEnd,
  UnreadableFileError,
} from '@agentdash/core';
import type Database from 'better-sqlite3';
import { adapterForFile, agentOfRow, discoverAll } from './agents.js';
import { Archive, type ArchivedFileRow, HELD } from './archive.js';
import { buildingElsewhere, clearBuilding, noteBuilding } from './building.js';
import { FactTracker } from './call-fact.js';
import { recordsOfRows } from './call-payloads.js';
import { fingerprintOf } from './fingerprint.js';
import { releaseFreePages } from './free-pages.js';
import { type FileRow, idOfKey, type ReadRecords, sessionKeyOf, Writer } from './import.js';
import { IMPORT_FAILED, recordImportFailure } from './import-failure.js';
import { findMoves, type Move } from './moves.js';
import { type ArchiveChunk, type ParseJob, ParsePool } from './parse-pool.js';
import { isUnder, pathCond, scopeSql, withoutCoveringPaths } from './scope.js';
import { SessionUpdater } from './sessions.js';
import { Settings } from './settings.js';
import { prepared } from './statements.js';
import type { RefreshOptions, RefreshReport } from './types.js';
import { heldBefore, holdFile, lossMessage, lostRecords, noteLoss } from './versions.js';
import { bumpGeneration, FreshnessProbe, type WarmCounts } from './warm.js';

/** Why the file cannot be opened for reading now, or undefined when it can. */
function readError(path: string): Error | undefined {
  try {
    accessSync(path, constants.R_OK);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** True when `stat` fails for lack of permission (EACCES, EPERM), not because the path is gone. */
function isHiddenByPermissions(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return code === 'EACCES' || code === 'EPERM';
  }
}

/**
 * Files ordered so the most recently active sessions are read first (a session's files together, by path), so a
 * list that fills while a first index is built starts with what the user most likely wants.
 */
function newestSessionsFirst(files: readonly DiscoveredFile[]): DiscoveredFile[] {
  const newest = new Map<string, number>();
  for (const f of files) {
    const key = sessionKeyOf(f);
    newest.set(key, Math.max(newest.get(key) ?? 0, f.mtimeMs));
  }
  const keyed = files.map((file) => ({ file, key: sessionKeyOf(file) }));
  keyed.sort(
    (a, b) =>
      (newest.get(b.key) ?? 0) - (newest.get(a.key) ?? 0) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
      (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0),
  );
  return keyed.map((k) => k.file);
}

interface ImportOutcome {
  readonly parsed: boolean;
  readonly bytes: number;
  readonly records: number;
  readonly issues: number;
}

/** Where a read that is not used ends (its file's import fails). */
const NOTHING_ENDED: ReadEnd = { nextOffset: 0, nextLine: 1, pendingBytes: 0, bytesRead: 0 };
const NOTHING_READ: ImportOutcome = { parsed: false, bytes: 0, records: 0, issues: 0 };
const FAILED: ImportOutcome = { parsed: false, bytes: 0, records: 0, issues: 1 };

/**
 * Files are imported in batches: one write transaction holds several files (one savepoint each), and the calls and
 * sessions they touched are recomputed once per batch. A batch ends after this many bytes or milliseconds, so other
 * processes wait for the write lock at most about that long and see the index fill as it goes.
 */
const BATCH_BYTES = 32 * 1024 * 1024;
const BATCH_MS = 500;

/** New bytes from which parse workers read files ahead of the writer (below, starting them costs more than it saves). */
const PARALLEL_BYTES = 16 * 1024 * 1024;
/**
 * Files handed to the parse workers ahead of the one being written. A file waiting its turn holds only its
 * compressed archive chunks once read (each worker also pauses at `MAX_UNACKED_BYTES` of rows not taken): many
 * small files ahead keep both workers busy while the writer stores a large one.
 */
const FILES_AHEAD = 256;

/** What one write transaction has touched so far. */
interface Batch {
  readonly touched: Set<string>;
  readonly sessions: Set<string>;
  bytes: number;
  readonly startedAt: number;
}

/** What `forgetSession` deleted. */
export interface ForgetReport {
  /** The session's files whose archived bytes were deleted. */
  readonly files: number;
  /** Transcript bytes no longer archived. */
  readonly bytes: number;
  /** Files that were only in the archive and left the index. */
  readonly filesRemoved: number;
}

/** A file known only from the archive (gone from disk), as discovery would describe it. */
function discoveredFromArchive(row: ArchivedFileRow, agent: string | undefined): DiscoveredFile {
  return {
    path: row.path,
    agent: agentOfRow(agent),
    projectDir: row.project_dir,
    role: row.role,
    sessionId: row.session_id ?? undefined,
    agentId: row.agent_id ?? undefined,
    metaPath: row.meta_path ?? undefined,
    size: row.file_size,
    mtimeMs: row.mtime_ms,
    ino: row.ino,
  };
}

/** Where one file's bytes come from in this refresh, and whether new bytes go to the archive. */
interface Source {
  readonly fromArchive: boolean;
  readonly archiving: boolean;
  /** Bytes of the file archived when the refresh started. */
  readonly archivedBytes: number;
}

/** The columns of a stored file that a refresh compares with the disk. */
type StoredFile = Pick<
  FileRow,
  'path' | 'session_id' | 'size' | 'mtime_ms' | 'ino' | 'parsed_offset' | 'archived' | 'meta_path' | 'agent'
>;

/** Whether the stored row describes the file as it is on disk (same inode, size, mtime and session). */
function isUnchanged(row: StoredFile | undefined, file: DiscoveredFile, sessionId: string): boolean {
  return (
    row !== undefined &&
    row.ino === file.ino &&
    row.size === file.size &&
    row.mtime_ms === file.mtimeMs &&
    row.session_id === sessionId
  );
}

/**
 * Runs refreshes one at a time over one connection. Any number of processes may refresh one database: a file's row
 * is read again under the write lock (`BEGIN IMMEDIATE`), so a file another process has just imported is skipped.
 */
export class Refresher {
  private readonly writer: Writer;
  private readonly updater: SessionUpdater;
  readonly archive: Archive;
  readonly settings: Settings;
  private readonly fileByPath: Database.Statement;
  private queue: Promise<unknown> = Promise.resolve();
  /** Files that could not be read during the last refresh. */
  private unreadable: ParseIssue[] = [];
  private batch: Batch | undefined;
  /** Records of stored calls and results read back (facts no parse worker computed). */
  private readonly readRecords: ReadRecords;
  /** The progress of a build this refresh announces to other processes (`building.ts`), written on each commit. */
  private building: { filesDone: number; filesTotal: number } | undefined;

  constructor(private readonly db: Database.Database) {
    this.writer = new Writer(db);
    this.updater = new SessionUpdater(db);
    this.archive = new Archive(db);
    this.readRecords = recordsOfRows(db, this.archive);
    this.settings = new Settings(db);
    this.fileByPath = db.prepare('SELECT * FROM files WHERE path = ?');
  }

  /** Problems of the last refresh that are not stored with a file: unreadable files and folders. */
  problems(): readonly ParseIssue[] {
    return this.unreadable;
  }

  refresh(paths: readonly string[], options: RefreshOptions = {}): Promise<RefreshReport> {
    // One refresh at a time: each batch is a transaction on the one connection.
    const run = this.queue.then(
      () => this.doRefresh(paths, options),
      () => this.doRefresh(paths, options),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Delete a session's files from the archive on purpose. Files still on disk stay indexed (and are archived
   * again by the next refresh while archiving is on); files that are gone leave the index, and with them the session.
   */
  forgetSession(sessionId: string): Promise<ForgetReport> {
    const run = this.queue.then(
      () => this.doForget(sessionId),
      () => this.doForget(sessionId),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async doForget(sessionId: string): Promise<ForgetReport> {
    this.begin();
    try {
      const rows = prepared(this.db, 'SELECT * FROM files WHERE session_id = ?').all(sessionId) as FileRow[];
      let bytes = 0;
      let filesRemoved = 0;
      for (const row of rows) {
        bytes += this.archive.end(row.path);
        this.archive.forget(row.path, row.meta_path);
        if (row.archived === 1 && this.removeFile(row.path)) filesRemoved += 1;
        // Held at a version whose bytes are gone now: the next refresh reads the copy on disk as a new file.
        if (row.archived === HELD) this.removeFile(row.path);
      }
      await this.commit();
      // Deleted on purpose: the file gets smaller.
      releaseFreePages(this.db);
      return { files: rows.length, bytes, filesRemoved };
    } catch (error) {
      await this.commit();
      throw error;
    }
  }

  private begin(): Batch {
    if (this.batch === undefined) {
      this.db.exec('BEGIN IMMEDIATE');
      this.batch = { touched: new Set(), sessions: new Set(), bytes: 0, startedAt: Date.now() };
    }
    return this.batch;
  }

  /** Recompute what the batch touched and commit it. */
  private async commit(): Promise<void> {
    const batch = this.batch;
    if (batch === undefined) return;
    try {
      await this.writer.recomputeCalls(batch.touched, batch.sessions, this.readRecords);
      for (const sid of batch.sessions) this.updater.recompute(sid);
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
   * `countedPaths` (a refresh of some folders of a home, `refreshChanged`): the stored and archived files looked at
   * are only those under `paths`, and the report counts those wider paths as a whole. `options.onlyUnder` looks at
   * those under `paths` too, and the report counts `paths`. Else every stored file is looked at, so that a file gone
   * from disk anywhere, not archived, leaves the index, and the report counts `paths`.
   */
  private async doRefresh(
    paths: readonly string[],
    options: RefreshOptions,
    countedPaths?: readonly string[],
  ): Promise<RefreshReport> {
    const onlyUnder = countedPaths !== undefined || options.onlyUnder === true;
    // Another process is building the index: what it has committed, at once (it would be waited for, batch after
    // batch, and the rest read here too).
    const elsewhere = options.partialWhileBuilding === true ? buildingElsewhere(this.db) : undefined;
    if (elsewhere !== undefined) {
      const counts = this.countsUnder(paths);
      return {
        files: counts.files,
        filesParsed: 0,
        bytesParsed: 0,
        records: 0,
        issues: counts.issues,
        newIssues: 0,
        filesRemoved: 0,
        sessions: counts.sessions,
        archivedFiles: counts.archivedFiles,
        partial: { filesDone: elsewhere.filesDone, filesTotal: elsewhere.filesTotal },
      };
    }
    const roots = paths.map((p) => resolve(p));
    for (const root of roots) {
      const info = (() => {
        try {
          return statSync(root, { throwIfNoEntry: false });
        } catch (error) {
          throw new UnreadableFileError(root, error);
        }
      })();
      if (info?.isDirectory() && root.endsWith('.jsonl')) {
        throw new UnreadableFileError(root, new Error('is a directory, not a transcript file'));
      }
    }
    if (options.changedFiles !== undefined && options.changedFiles.length > 0) {
      const dirs = this.projectDirsOf(options.changedFiles, roots);
      if (dirs !== undefined) return this.refreshChanged(paths, dirs, options);
    }
    // The mtimes of the folders above the stored files before anything is listed (discovery notes those of the
    // folders it lists as it lists them): what the next run's freshness pass compares with.
    const probe = options.freshnessRecord === true ? new FreshnessProbe(this.db, paths) : undefined;
    // What a warm refresh compares with the disk (not the fingerprints: they are read under the lock when needed).
    const under = onlyUnder ? pathCond(roots, 'f') : { sql: '1 = 1', params: [] };
    const stored = prepared(
      this.db,
      `SELECT path, session_id, size, mtime_ms, ino, parsed_offset, archived, meta_path, agent FROM files f
       WHERE ${under.sql}`,
    ).all(...under.params) as StoredFile[];
    const storedByPath = new Map(stored.map((f) => [f.path, f]));
    // A flat agent file's session id is stored: discovery need not open the file again while its inode is the same.
    const discovery = await discoverAll(paths, {
      knownSessionId: (path, ino) => {
        const row = storedByPath.get(path);
        // A guessed `orphan-…` session (the file was empty or its first line unfinished) is looked up again.
        if (row === undefined || row.ino !== ino) return undefined;
        const id = idOfKey(row.session_id);
        return id.startsWith('orphan-') ? undefined : id;
      },
    });
    this.unreadable = [...discovery.issues];
    const discovered = new Map(discovery.files.map((f) => [f.path, f]));
    // Files that moved (a project folder renamed) keep their rows, calls and archive under their new path. Not
    // looked for on a first index (nothing is stored).
    if (stored.length > 0 || onlyUnder) {
      const fresh = discovery.files.filter((f) => !storedByPath.has(f.path));
      for (const move of await findMoves(this.db, fresh, new Set(discovered.keys()))) {
        const row = this.moveFile(move);
        if (row === undefined) continue;
        storedByPath.delete(move.from.path);
        storedByPath.set(row.path, row);
      }
    }
    const archiving = options.archive ?? this.settings.archiving();
    const archived = this.archive.bytesByPath(onlyUnder ? roots : undefined);
    // Archived files under the given paths that are gone from disk are read from the archive.
    const fromArchive: DiscoveredFile[] = [];
    for (const path of archived.keys()) {
      if (discovered.has(path) || !roots.some((root) => isUnder(path, root)) || existsSync(path)) continue;
      const row = this.archive.file(path);
      if (row !== undefined) fromArchive.push(discoveredFromArchive(row, storedByPath.get(path)?.agent));
    }
    const archivedPaths = new Set(fromArchive.map((f) => f.path));

    let filesParsed = 0;
    let bytesParsed = 0;
    let records = 0;
    let newIssues = 0;
    let filesRemoved = 0;
    const explicitFiles = new Set(roots.filter((r) => r.endsWith('.jsonl')));
    // Newest sessions first (a session's files together), so that recent sessions are listed first while a large
    // archive is indexed.
    const files = newestSessionsFirst([...discovery.files, ...fromArchive]);
    const filesTotal = files.length;
    const bytesTotal = files.reduce((n, f) => n + f.size, 0);
    let filesDone = 0;
    let bytesDone = 0;
    options.onProgress?.({ done: 0, total: filesTotal, file: '', filesDone, filesTotal, bytesDone, bytesTotal });
    // New files on disk are read by parse workers a few files ahead of the writer (this thread), in import order.
    const readAhead = files.filter((f) => !archivedPaths.has(f.path) && !storedByPath.has(f.path));
    const readAheadBytes = readAhead.reduce((n, f) => n + f.size, 0);
    const pool =
      options.parseWorkers === 0 || (options.parseWorkers === undefined && readAheadBytes < PARALLEL_BYTES)
        ? undefined
        : ParsePool.create(options.parseWorkers);
    const jobs = new Map<string, ParseJob>();
    let submitted = 0;
    const submitAhead = () => {
      while (pool !== undefined && submitted < readAhead.length && jobs.size < FILES_AHEAD) {
        const file = readAhead[submitted++] as DiscoveredFile;
        jobs.set(file.path, pool.submit(file, file.agentId ?? null, archiving));
      }
    };
    const restoreTempStore = stored.length === 0 ? this.journalsInMemory() : () => {};
    // A long build (a first index of a large home) is announced to other processes, with its progress.
    if (readAhead.length > 0 && readAheadBytes >= (options.buildNoticeBytes ?? PARALLEL_BYTES)) {
      this.building = { filesDone, filesTotal };
      this.begin();
      await this.commit();
    }
    try {
      // A subagent's .meta.json may appear after its transcript was first read.
      for (const file of discovery.files) {
        const row = storedByPath.get(file.path);
        if (row !== undefined && row.meta_path !== (file.metaPath ?? null)) {
          this.begin();
          prepared(this.db, 'UPDATE files SET meta_path = ? WHERE path = ?').run(file.metaPath ?? null, row.path);
        }
      }
      // Gone from disk and not archived: dropped (an archived file stays, read from the archive).
      const gone = stored.filter(
        (row) =>
          !discovered.has(row.path) &&
          !archived.has(row.path) &&
          // In a folder that cannot be read now (chmod 000): still there, so kept; the folder is reported unreadable.
          !isHiddenByPermissions(row.path) &&
          (roots.some((root) => isUnder(row.path, root)) || !existsSync(row.path)),
      );
      for (const row of gone) if (this.removeFile(row.path)) filesRemoved += 1;
      for (const file of files) {
        if (options.beforeFile !== undefined) {
          // A caller pacing the import (or a test holding it) sees every file read so far, from any connection.
          await this.commit();
          await options.beforeFile(file.path);
        }
        submitAhead();
        const job = jobs.get(file.path);
        jobs.delete(file.path);
        const source: Source = {
          fromArchive: archivedPaths.has(file.path),
          archiving,
          archivedBytes: archived.get(file.path) ?? 0,
        };
        const row = storedByPath.get(file.path);
        // A permission change (chmod 000) leaves size and mtime alone: an unchanged file that cannot be read now is
        // reported as a changed one is when its read fails (its indexed content is kept).
        if (!source.fromArchive && isUnchanged(row, file, sessionKeyOf(file))) {
          const denied = readError(file.path);
          if (denied !== undefined && explicitFiles.has(file.path)) throw new UnreadableFileError(file.path, denied);
          if (denied !== undefined) {
            this.unreadable.push({ code: 'unreadable_file', file: file.path, line: 0, message: denied.message });
          }
        }
        // Unchanged since this refresh started: no lock needed (another process can only have stored the same).
        if (!isUnchanged(row, file, sessionKeyOf(file)) || this.needsArchiveWork(row, source)) {
          const batch = this.begin();
          const outcome = await this.importFile(file, explicitFiles.has(file.path), batch, source, job).catch(
            async (error: unknown) => {
              // Its worker's chunks not taken yet are dropped (else the worker would wait for them forever).
              job?.discard();
              // A file named on the command line that cannot be read is the user's to know about, at once.
              if (error instanceof UnreadableFileError) throw error;
              // Anything else (a bug, a value we cannot store) stops this file only (rolled back to its savepoint):
              // keep the batch so far, note the failure and go on with the next file.
              await this.commit();
              recordImportFailure(this.db, file, sessionKeyOf(file), error, (sid) => {
                this.updater.recompute(sid);
                bumpGeneration(this.db);
              });
              return FAILED;
            },
          );
          if (outcome.parsed) filesParsed += 1;
          bytesParsed += outcome.bytes;
          records += outcome.records;
          newIssues += outcome.issues;
          batch.bytes += outcome.bytes;
          // The first file a refresh parses is committed at once: on a new index, the newest session is listed
          // while the rest is read.
          const first = outcome.parsed && filesParsed === 1;
          if ((this.batch === batch && batch.bytes >= BATCH_BYTES) || Date.now() - batch.startedAt >= BATCH_MS || first)
            await this.commit();
        }
        filesDone += 1;
        bytesDone += file.size;
        if (this.building !== undefined) this.building.filesDone = filesDone;
        options.onProgress?.({
          done: filesDone,
          total: filesTotal,
          file: file.path,
          filesDone,
          filesTotal,
          bytesDone,
          bytesTotal,
        });
      }
      await this.commit();
      if (filesParsed > 0 || filesRemoved > 0) releaseFreePages(this.db);
    } catch (error) {
      // What earlier files of the batch stored is kept; the failing file was rolled back to its savepoint.
      await this.commit();
      throw error;
    } finally {
      // The workers first, whatever happens after: a pool left open keeps the process alive (a server stopped while
      // it indexes closes the connection under the refresh, and the setting cannot be put back then).
      try {
        await pool?.close();
      } finally {
        restoreTempStore();
        this.endBuilding();
      }
    }

    // Counted once: over the wider paths for a refresh of some of their folders, else over what was read.
    const counted = this.countsUnder(countedPaths ?? paths);
    const counts: WarmCounts = onlyUnder
      ? counted
      : { ...counted, files: filesTotal, archivedFiles: fromArchive.length };
    probe?.finish(this.unreadable.length === 0, archiving, counts, discovery.folders);
    // In the order of `RefreshReport` (and of `index --json`).
    return {
      files: counts.files,
      filesParsed,
      bytesParsed,
      records,
      issues: counts.issues,
      newIssues,
      filesRemoved,
      sessions: counts.sessions,
      archivedFiles: counts.archivedFiles,
    };
  }

  /**
   * What a refresh of `paths` reports of them as a whole: stored files (on disk and from the archive), issues (the
   * last refresh's unreadable files and folders too), sessions. Plain counts when every stored file is under the
   * paths (the usual case).
   */
  private countsUnder(paths: readonly string[]): WarmCounts {
    const counted = withoutCoveringPaths({ db: this.db }, { paths });
    const scoped = scopeSql(counted, { pathsFirst: true });
    const inPaths = pathCond(counted.paths ?? [], 'f');
    const files = prepared(
      this.db,
      `SELECT COUNT(*) AS files, COALESCE(SUM(f.archived = 1), 0) AS archived FROM files f WHERE ${inPaths.sql}`,
    ).get(...inPaths.params) as { files: number; archived: number };
    const issues =
      (prepared(this.db, `SELECT COUNT(*) FROM issues i JOIN files f ON f.id = i.file_id WHERE ${inPaths.sql}`)
        .pluck()
        .get(...inPaths.params) as number) + this.unreadable.length;
    const sessions = prepared(this.db, `SELECT COUNT(*) FROM sessions s WHERE ${scoped.sql}`)
      .pluck()
      .get(...scoped.params) as number;
    return { files: files.files, issues, sessions, archivedFiles: files.archived };
  }

  /**
   * What to refresh for these stored files: their project folders (the files themselves under narrower paths), or
   * undefined when one is not stored or its folder is gone (then a full refresh).
   */
  private projectDirsOf(changed: readonly string[], roots: readonly string[]): string[] | undefined {
    const dirs = new Set<string>();
    for (const path of changed) {
      const row = this.fileByPath.get(resolve(path)) as FileRow | undefined;
      if (row === undefined || !existsSync(row.project_dir)) return undefined;
      // Paths narrower than the project folder (a Codex day folder: its rollouts' folder is the sessions root): the
      // file itself, so that nothing outside the paths is read.
      dirs.add(roots.some((root) => isUnder(row.project_dir, root)) ? row.project_dir : row.path);
    }
    return [...dirs];
  }

  /**
   * A refresh of `paths` where the warm pass saw only some stored files change (`RefreshOptions.changedFiles`): their
   * project folders are refreshed, and the freshness record of `paths` renewed. The report counts `paths` as a whole,
   * as a full refresh's does.
   */
  private async refreshChanged(
    paths: readonly string[],
    dirs: readonly string[],
    options: RefreshOptions,
  ): Promise<RefreshReport> {
    // Folder mtimes first, as a full refresh takes them before it lists anything: the record's folders (no file
    // came or went, the warm pass said), checked again now.
    const probe = new FreshnessProbe(this.db, paths, true);
    const { changedFiles: _, ...full } = options;
    // A file came or went since the pass of stats (another folder changed): only a full refresh can see it.
    if (!probe.sameAsRecord()) return this.doRefresh(paths, full);
    const { freshnessRecord: __, ...inDirs } = full;
    const report = await this.doRefresh(dirs, inDirs, paths);
    if (options.freshnessRecord === true) {
      const archiving = options.archive ?? this.settings.archiving();
      const { files, issues, sessions, archivedFiles } = report;
      probe.finishChanged(dirs, this.unreadable.length === 0, archiving, { files, issues, sessions, archivedFiles });
    }
    return report;
  }

  /**
   * Work on an unchanged file: its archived flag is wrong (it went or came back), or it still has bytes to archive
   * (indexed before the archive existed, or while archiving was off).
   */
  private needsArchiveWork(row: StoredFile | undefined, source: Source): boolean {
    if (row === undefined) return false;
    if ((row.archived === 1) !== source.fromArchive) return true;
    return !source.fromArchive && source.archiving && source.archivedBytes < row.parsed_offset;
  }

  /**
   * A stored file found at another path: its row, session key and archive follow it (its calls and records stay
   * where they are, rows of the file). Undefined when another process has moved or stored it meanwhile.
   */
  private moveFile({ from, to }: Move): FileRow | undefined {
    const batch = this.begin();
    if (this.fileByPath.get(to.path) !== undefined) return undefined;
    const key = sessionKeyOf(to);
    const moved = prepared(
      this.db,
      `UPDATE files SET path = ?, project_dir = ?, role = ?, session_id = ?, agent_id = ?, meta_path = ?, ino = ?,
         archived = 0 WHERE id = ? AND path = ?`,
    ).run(to.path, to.projectDir, to.role, key, to.agentId ?? null, to.metaPath ?? null, to.ino, from.id, from.path);
    if (moved.changes === 0) return undefined;
    this.archive.move(from.path, to, from.meta_path);
    batch.sessions.add(from.session_id);
    batch.sessions.add(key);
    return this.fileByPath.get(to.path) as FileRow;
  }

  /** The announced build is over (or failed): its row goes. Never throws (the connection may be closed). */
  private endBuilding(): void {
    if (this.building === undefined) return;
    this.building = undefined;
    try {
      this.db.transaction(() => clearBuilding(this.db)).immediate();
    } catch {
      // Closed under the refresh (a server stopped): readers see its process gone.
    }
  }

  /** Drop a file that is gone (read again under the lock: another process may have dropped it already). */
  private removeFile(path: string): boolean {
    const row = this.fileByPath.get(path) as FileRow | undefined;
    if (row === undefined) return false;
    const batch = this.begin();
    for (const id of this.writer.idsLeaving(row.id)) batch.touched.add(id);
    batch.sessions.add(row.session_id);
    this.writer.clearFile(row.id);
    prepared(this.db, 'DELETE FROM files WHERE id = ?').run(row.id);
    return true;
  }

  /** Import what is new in one file, inside the open batch, as one savepoint. */
  private async importFile(
    file: DiscoveredFile,
    explicit: boolean,
    batch: Batch,
    source: Source,
    job: ParseJob | undefined,
  ): Promise<ImportOutcome> {
    const sessionId = sessionKeyOf(file);
    // Read again under the write lock: another process may have imported this file since the refresh started.
    const storedRow = this.fileByPath.get(file.path) as FileRow | undefined;
    // A worker read the file from byte 0, as a new file: anything else is read here.
    const parsed = storedRow === undefined ? job : undefined;
    if (parsed === undefined) job?.discard();
    const openBytes: OpenBytes = source.fromArchive ? async (path) => this.archive.source(path) : openFileBytes;
    const archiveNew = source.archiving && !source.fromArchive;
    if (storedRow?.archived === HELD && source.fromArchive) {
      // Held at its last complete version, which the archive holds: gone from disk now, it is read from there as is.
      prepared(this.db, 'UPDATE files SET size = ?, mtime_ms = ?, ino = ?, archived = 1 WHERE id = ?').run(
        file.size,
        file.mtimeMs,
        file.ino,
        storedRow.id,
      );
      return NOTHING_READ;
    }
    if (
      storedRow?.archived === HELD &&
      !source.fromArchive &&
      adapterForFile(file).capabilities.appendOnly &&
      file.size < storedRow.parsed_offset &&
      (await this.archive.growVersion(file))
    ) {
      // Held, and its copy on disk only grew, still shorter than the version shown (so it cannot hold all of it yet):
      // the new bytes are kept beside it, and the file stays held. Grown as long, it is read again (it may hold
      // everything again, as a file a sync tool writes back).
      prepared(this.db, 'UPDATE files SET size = ?, mtime_ms = ? WHERE id = ?').run(
        file.size,
        file.mtimeMs,
        storedRow.id,
      );
      return NOTHING_READ;
    }
    if (storedRow !== undefined && isUnchanged(storedRow, file, sessionId)) {
      prepared(this.db, 'UPDATE files SET archived = ? WHERE id = ?').run(source.fromArchive ? 1 : 0, storedRow.id);
      if (archiveNew) await this.archiveUpTo(file, storedRow.parsed_offset).catch(() => undefined);
      return NOTHING_READ;
    }

    const { touched, sessions } = batch;
    sessions.add(sessionId);
    const counts = { records: 0, issues: 0 };
    const savepoint = this.writer.savepoint('file_import');
    try {
      const restart =
        storedRow === undefined ||
        // Held at its last complete version: the copy on disk is read whole again whenever it changes.
        storedRow.archived === HELD ||
        storedRow.ino !== file.ino ||
        file.size < storedRow.parsed_offset ||
        storedRow.session_id !== sessionId ||
        // A format rewritten in place (not append-only) is read whole again on any change.
        !adapterForFile(file).capabilities.appendOnly ||
        // Rewritten in place (same inode, not shorter): the bytes before the offset are not the ones we read.
        (await fingerprintOf(file.path, storedRow.parsed_offset, openBytes)) !== storedRow.tail;
      // What the file held, to tell whether its new read lost records (then it is held at that version).
      const before =
        restart && storedRow !== undefined && !source.fromArchive ? heldBefore(this.db, storedRow, file) : undefined;
      const current = this.startRow(file, sessionId, storedRow, restart, touched, sessions);
      // A file read again from byte 0 on disk is archived again from byte 0.
      if (restart && archiveNew) this.archive.clear(file.path);
      // New bytes go to the archive while they are parsed: compressed by the parse worker that reads the file, else
      // beside this thread's parse (`Archive.archiveRange`).
      const workerArchives = parsed !== undefined && parsed.archiving === archiveNew;
      const archiveHere = () =>
        this.archiveUpTo(file, file.size).then(
          (end) => ({ end }),
          (error: unknown) => ({ error }),
        );
      let archiving: Promise<{ end: number } | { error: unknown }> | undefined =
        archiveNew && !workerArchives ? archiveHere() : undefined;
      let end: ReadEnd;
      let tail: string | undefined;
      // A failure to store (a bug, a full disk) must not pass for an unreadable file.
      let storeError: unknown;
      const facts = new FactTracker(agentOfRow(file.agent));
      // The new read's first problem: why a file that lost records does not parse now, when that is why.
      let firstIssue: ParseIssue | undefined;
      const readHere = () =>
        adapterForFile(file).streamRecords(
          file,
          (event) => {
            if (event.kind === 'issue') firstIssue ??= event.issue;
            if (storeError !== undefined) return;
            try {
              this.writer.handle(current, event, touched, counts, facts);
            } catch (error) {
              storeError = error;
            }
          },
          { startOffset: current.parsed_offset, startLine: current.next_line, open: openBytes },
        );
      try {
        const stored = parsed === undefined ? undefined : await this.storeParsed(parsed, current, touched, counts);
        if (stored === undefined) {
          // Not read by a worker (or it could not): read here, archiving beside the parse.
          if (archiveNew && archiving === undefined) archiving = archiveHere();
          end = await readHere();
          if (storeError === undefined) this.writer.finishFacts(current, facts, touched, counts);
        } else if ('error' in stored) {
          storeError = stored.error;
          end = NOTHING_ENDED;
        } else {
          end = stored.end;
          tail = stored.tail;
          if (archiveNew && workerArchives) {
            archiving = this.storeArchived(file, stored.archived ?? []).then(
              (archivedEnd) => ({ end: archivedEnd }),
              (error: unknown) => ({ error }),
            );
          }
        }
      } catch (error) {
        await archiving;
        if (explicit) throw new UnreadableFileError(file.path, error);
        // Unreadable now (permissions, vanished): keep what we had, note it, move on.
        savepoint.rollback();
        this.unreadable.push({
          code: 'unreadable_file',
          file: file.path,
          line: 0,
          message: error instanceof Error ? error.message : String(error),
        });
        return NOTHING_READ;
      }
      const archived = await archiving;
      if (storeError !== undefined) throw storeError;
      if (archived !== undefined) {
        if ('error' in archived) throw archived.error;
        // The archive ends where the parse ends: an unfinished last line is archived once it is complete.
        if (archived.end > end.nextOffset) this.archive.truncate(file.path, end.nextOffset);
        else if (archived.end < end.nextOffset) await this.archiveUpTo(file, end.nextOffset);
      }
      let lossNote: string | undefined;
      if (before !== undefined && storedRow !== undefined) {
        const lost = lostRecords(this.db, before, current.id, counts.records);
        if (lost > 0 && source.archivedBytes >= storedRow.parsed_offset) {
          savepoint.rollback();
          const message = lossMessage(before, lost, true, firstIssue, end.pendingBytes);
          await holdFile(this.db, this.archive, storedRow, file, source.archiving, message);
          return { parsed: true, bytes: end.bytesRead, records: 0, issues: 1 };
        }
        if (lost > 0) lossNote = lossMessage(before, lost, false, firstIssue, end.pendingBytes);
        else this.archive.dropVersion(file.path);
      }
      // Records appended to a file already read, at the file's modification time: while it is recent, the session
      // is being written now (live). A refresh long after the append (a CLI run days later) does not make it live.
      const appended = !restart && counts.records > 0 ? file.mtimeMs : current.appended_ms;
      prepared(
        this.db,
        `UPDATE files SET size = ?, mtime_ms = ?, ino = ?, parsed_offset = ?, next_line = ?, records = records + ?,
             tail = ?, appended_ms = ?, archived = ? WHERE id = ?`,
      ).run(
        file.size,
        file.mtimeMs,
        file.ino,
        end.nextOffset,
        end.nextLine,
        counts.records,
        tail ?? (await fingerprintOf(file.path, end.nextOffset, openBytes)),
        appended,
        source.fromArchive ? 1 : 0,
        current.id,
      );
      prepared(this.db, 'DELETE FROM issues WHERE file_id = ? AND code = ?').run(current.id, IMPORT_FAILED);
      if (lossNote !== undefined) noteLoss(this.db, current.id, lossNote);
      savepoint.release();
      const issues = counts.issues + (lossNote === undefined ? 0 : 1);
      return { parsed: true, bytes: end.bytesRead, records: counts.records, issues };
    } catch (error) {
      if (this.db.inTransaction) savepoint.rollback();
      throw error;
    }
  }

  /**
   * Store what a parse worker read of a new file, chunk by chunk as it comes. Undefined when the worker could not
   * read or convert it: what it stored is rolled back, and the caller reads the file itself.
   */
  private async storeParsed(
    job: ParseJob,
    current: FileRow,
    touched: Set<string>,
    counts: { records: number; issues: number },
  ): Promise<
    | { readonly end: ReadEnd; readonly tail: string; readonly archived: readonly ArchiveChunk[] | undefined }
    | { readonly error: unknown }
    | undefined
  > {
    const savepoint = this.writer.savepoint('parsed_rows');
    try {
      for (;;) {
        const message = await job.next();
        if (message.type === 'ops') {
          this.writer.apply(current, message.ops, touched, counts);
          continue;
        }
        if (message.type === 'end') {
          savepoint.release();
          return { end: message.end, tail: message.tail, archived: message.archived };
        }
        savepoint.rollback();
        counts.records = 0;
        counts.issues = 0;
        return undefined;
      }
    } catch (error) {
      // A failure to store: the file's import fails as it would have here (rolled back by the caller).
      job.discard();
      if (this.db.inTransaction) savepoint.rollback();
      return { error };
    }
  }

  /** Store the archive chunks a parse worker compressed, as `archiveUpTo(file, file.size)` would. */
  private async storeArchived(file: DiscoveredFile, chunks: readonly ArchiveChunk[]): Promise<number> {
    this.archive.noteFile(file);
    if (file.metaPath !== undefined) await this.archive.archiveSmallFile(file.metaPath);
    return this.archive.storeChunks(file.path, chunks);
  }

  /**
   * Archive a file's bytes on disk from where its archive ends up to `to`, and note the file (and its subagent meta
   * file) in the archive. Returns where the archive now ends.
   */
  private async archiveUpTo(file: DiscoveredFile, to: number): Promise<number> {
    this.archive.noteFile(file);
    if (file.metaPath !== undefined) await this.archive.archiveSmallFile(file.metaPath);
    const from = this.archive.end(file.path);
    return from < to ? this.archive.archiveRange(file.path, from, to) : from;
  }

  /**
   * Keep the statement journals of a first index's savepoints (one per file) in memory, not in temporary files: a
   * savepoint copies each page it is the first to change (the files row's pages, the archive's, every index's leaf),
   * and those copies were most of a cold index's writes. Only on a first
   * index, where a file's savepoint holds at most the shared pages its import changes: a later refresh may re-read or
   * drop a large file, whose every stored page its savepoint would copy. Only while the refresh runs: elsewhere a
   * large sort spills to a temporary file as usual. Returns what puts the setting back.
   */
  private journalsInMemory(): () => void {
    if (this.db.inTransaction) return () => {};
    const before = this.db.pragma('temp_store', { simple: true }) as number;
    this.db.pragma('temp_store = MEMORY');
    return () => {
      try {
        if (this.db.open && !this.db.inTransaction) this.db.pragma(`temp_store = ${before}`);
      } catch {
        // The connection closed or busy: the setting goes with it (it is never stored in the file).
      }
    };
  }

  /**
   * The file's row to read on from: a new row for a new file; on a restart, the stored row emptied (its calls and
   * session noted for recomputation); else the stored row as it is.
   */
  private startRow(
    file: DiscoveredFile,
    sessionId: string,
    storedRow: FileRow | undefined,
    restart: boolean,
    touched: Set<string>,
    sessions: Set<string>,
  ): FileRow {
    const rowById = (id: number | bigint) => prepared(this.db, 'SELECT * FROM files WHERE id = ?').get(id) as FileRow;
    // The project folder is kept as first discovered: a file passed on its own (e.g. a 2.1 subagent file) is
    // discovered with its own folder as project folder, which must not move it or make it re-read.
    if (storedRow === undefined) {
      const id = prepared(
        this.db,
        `INSERT INTO files (path, project_dir, role, session_id, agent_id, meta_path, size, mtime_ms, ino, agent)
           VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0, ?)`,
      ).run(
        file.path,
        file.projectDir,
        file.role,
        sessionId,
        file.agentId ?? null,
        file.metaPath ?? null,
        file.agent,
      ).lastInsertRowid;
      return rowById(id);
    }
    if (!restart) return storedRow;
    for (const id of this.writer.idsLeaving(storedRow.id)) touched.add(id);
    sessions.add(storedRow.session_id);
    this.writer.clearFile(storedRow.id);
    prepared(
      this.db,
      `UPDATE files SET project_dir = ?, role = ?, session_id = ?, agent_id = ?, meta_path = ?,
         parsed_offset = 0, next_line = 1, records = 0, unknown_records = 0 WHERE id = ?`,
    ).run(storedRow.project_dir, file.role, sessionId, file.agentId ?? null, file.metaPath ?? null, storedRow.id);
    return rowById(storedRow.id);
  }
}
