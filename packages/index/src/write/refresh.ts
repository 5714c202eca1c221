/** Bringing the index up to date with the transcript files on disk: discover, drop what is gone, read what grew. */

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isPartlySearched, type ParseIssue, UnreadableFileError } from '@agentdash/core';
import { isUnder } from '@agentdash/core/base';
import type Database from 'better-sqlite3';
import { discoverAll } from '../agents.js';
import { type Archive, HELD } from '../archive/archive.js';
import { type FileRow, idOfKey, sessionKeyOf } from '../file-row.js';
import { hasArchivedFilesUnder } from '../read/archived-under.js';
import { recordsOfRows } from '../read/call-payloads.js';
import { pathCond } from '../read/scope.js';
import { releaseFreePages } from '../schema/free-pages.js';
import { Settings } from '../schema/settings.js';
import { archiveOf, prepared } from '../schema/statements.js';
import type { RefreshOptions, RefreshReport } from '../types.js';
import { bumpGeneration, FreshnessProbe, type WarmCounts } from '../warm/freshness.js';
import { buildingElsewhere } from './building.js';
import { CopyReads } from './copy-reads.js';
import { AgentFiles, FiledAgents } from './copy-rows.js';
import { Writer } from './import.js';
import { recordImportFailure } from './import-failure.js';
import { FAILED, FileImporter, type ImportOutcome } from './import-file.js';
import { findMoves } from './moves.js';
import type { ParseJob } from './parse-pool.js';
import { PARALLEL_BYTES, ReadAhead } from './read-ahead.js';
import { countsUnder, partialReport } from './refresh-counts.js';
import { isHiddenByPermissions, readError, requireKnownRoots, resolvedRoots } from './refresh-disk.js';
import { type FileStep, planRefresh, type StoredFile } from './refresh-plan.js';
import { newlyMissingMain, SessionUpdater, sessionsMissingMain } from './sessions.js';
import { type Batch, checkpointAtEnd, journalsInMemory, WriteBatches } from './write-batch.js';

/** What `forgetSession` deleted. */
export interface ForgetReport {
  /** The session's files whose archived bytes were deleted. */
  readonly files: number;
  /** Transcript bytes no longer archived. */
  readonly bytes: number;
  /** Files that were only in the archive and left the index. */
  readonly filesRemoved: number;
}

/**
 * Runs refreshes one at a time over one connection. Any number of processes may refresh one database: a file's row
 * is read again under the write lock (`BEGIN IMMEDIATE`), so a file another process has just imported is skipped.
 */
export class Refresher {
  private readonly writer: Writer;
  private readonly updater: SessionUpdater;
  private readonly batches: WriteBatches;
  private readonly importer: FileImporter;
  private readonly copyReads: CopyReads;
  readonly archive: Archive;
  readonly settings: Settings;
  private queue: Promise<unknown> = Promise.resolve();
  /** Files that could not be read during the last refresh. */
  private unreadable: ParseIssue[] = [];

  constructor(private readonly db: Database.Database) {
    this.writer = new Writer(db);
    this.updater = new SessionUpdater(db);
    this.archive = archiveOf(db);
    this.batches = new WriteBatches(db, this.writer, this.updater, recordsOfRows(db, this.archive));
    const agentFiles = new AgentFiles(db);
    this.importer = new FileImporter(
      db,
      this.writer,
      this.archive,
      this.batches,
      (issue) => this.unreadable.push(issue),
      agentFiles,
    );
    this.copyReads = new CopyReads(db, this.importer, this.batches, this.archive, agentFiles);
    this.settings = new Settings(db);
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
    this.batches.begin();
    try {
      const rows = prepared(this.db, 'SELECT * FROM files WHERE session_id = ?').all(sessionId) as FileRow[];
      this.settings.noteForgotten();
      let bytes = 0;
      let filesRemoved = 0;
      for (const row of rows) {
        bytes += this.archive.end(row.path);
        this.archive.forget(row.path, row.meta_path);
        if (row.archived === 1 && this.importer.removeFile(row.path)) filesRemoved += 1;
        // Held at a version whose bytes are gone now: the next refresh reads the copy on disk as a new file.
        if (row.archived === HELD) this.importer.removeFile(row.path);
      }
      await this.copyReads.run([], this.settings.archiving(), new FiledAgents(this.db, []));
      await this.batches.commit();
      // Deleted on purpose: the file gets smaller.
      releaseFreePages(this.db);
      return { files: rows.length, bytes, filesRemoved };
    } catch (error) {
      await this.batches.commit();
      throw error;
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
      requireKnownRoots(this.db, paths);
      return partialReport(countsUnder(this.db, this.unreadable.length, paths), elsewhere);
    }
    const roots = resolvedRoots(paths);
    if (options.changedFiles !== undefined && options.changedFiles.length > 0) {
      const dirs = this.projectDirsOf(options.changedFiles, roots);
      if (dirs !== undefined) return this.refreshChanged(paths, dirs, options);
    }
    // The mtimes of the folders above the stored files before anything is listed (discovery notes those of the
    // folders it lists as it lists them): what the next run's freshness pass compares with.
    const probe = options.freshnessRecord === true ? new FreshnessProbe(this.db, paths) : undefined;
    const { stored, storedByPath, discovery } = await this.lookAtDisk(paths, roots, onlyUnder);
    const archiving = options.archive ?? this.settings.archiving();
    const plan = planRefresh({
      roots,
      stored,
      storedByPath,
      discovered: discovery.files,
      archived: this.archive.bytesByPath(onlyUnder ? roots : undefined),
      archivedFile: (path) => this.archive.file(path),
      archiving,
      exists: existsSync,
      hiddenByPermissions: isHiddenByPermissions,
    });

    let filesParsed = 0;
    let bytesParsed = 0;
    let records = 0;
    let newIssues = 0;
    const missingMain = sessionsMissingMain(this.db);
    let filesRemoved = 0;
    const filesTotal = plan.steps.length;
    const { bytesTotal } = plan;
    let filesDone = 0;
    let bytesDone = 0;
    options.onProgress?.({ done: 0, total: filesTotal, file: '', filesDone, filesTotal, bytesDone, bytesTotal });
    // New files on disk are read by parse workers a few files ahead of the writer (this thread), in import order.
    // The agents with a file in each session, for the copies of a subagent's records (copy-rows.ts).
    const filed = new FiledAgents(
      this.db,
      plan.steps.map((step) => step.file),
    );
    const readAhead = ReadAhead.start(plan.readAhead, plan.readAheadBytes, archiving, options.parseWorkers, (file) =>
      filed.of(file),
    );
    const restoreTempStore = stored.length === 0 ? journalsInMemory(this.db) : () => {};
    const checkpoint = stored.length === 0 ? checkpointAtEnd(this.db) : () => {};
    // A long build (a first index of a large home) is announced to other processes, with its progress.
    if (plan.readAhead.length > 0 && plan.readAheadBytes >= (options.buildNoticeBytes ?? PARALLEL_BYTES)) {
      await this.batches.announceBuilding(filesTotal);
    }
    try {
      // A subagent's .meta.json may appear after its transcript was first read.
      for (const { path, metaPath } of plan.metaPaths) {
        this.batches.begin();
        prepared(this.db, 'UPDATE files SET meta_path = ? WHERE path = ?').run(metaPath, path);
      }
      // Gone from disk and not archived: dropped (an archived file stays, read from the archive).
      for (const path of plan.gone) if (this.importer.removeFile(path)) filesRemoved += 1;
      for (const step of plan.steps) {
        const { file } = step;
        if (options.beforeFile !== undefined) {
          // A caller pacing the import (or a test holding it) sees every file read so far, from any connection.
          await this.batches.commit();
          await options.beforeFile(file.path);
        }
        const job = readAhead.take(file.path);
        const outcome = await this.runStep(step, job, filed);
        if (outcome !== undefined) {
          if (outcome.parsed) filesParsed += 1;
          bytesParsed += outcome.bytes;
          records += outcome.records;
          newIssues += outcome.issues;
          await this.batches.fileDone(outcome.batch, outcome.bytes, outcome.parsed && filesParsed === 1);
        }
        filesDone += 1;
        bytesDone += file.size;
        this.batches.noteProgress(filesDone);
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
      await this.copyReads.run(plan.steps, archiving, filed);
      await this.batches.commit();
      if (filesParsed > 0 || filesRemoved > 0) releaseFreePages(this.db);
    } catch (error) {
      // What earlier files of the batch stored is kept; the failing file was rolled back to its savepoint.
      await this.batches.commit();
      throw error;
    } finally {
      // The workers first, whatever happens after: a pool left open keeps the process alive (a server stopped while
      // it indexes closes the connection under the refresh, and the setting cannot be put back then).
      try {
        await readAhead.close();
      } finally {
        restoreTempStore();
        checkpoint();
        this.batches.endBuilding();
      }
    }

    // Counted once: over the wider paths for a refresh of some of their folders, else over what was read.
    const counted = countsUnder(this.db, this.unreadable.length, countedPaths ?? paths);
    const counts: WarmCounts = onlyUnder
      ? counted
      : { ...counted, files: filesTotal, archivedFiles: plan.fromArchive.length };
    probe?.finish(this.unreadable.every(isPartlySearched), archiving, counts, discovery.folders);
    // In the order of `RefreshReport` (and of `index --json`).
    return {
      files: counts.files,
      filesParsed,
      bytesParsed,
      records,
      issues: counts.issues,
      newIssues: newIssues + newlyMissingMain(this.db, missingMain),
      filesRemoved,
      sessions: counts.sessions,
      archivedFiles: counts.archivedFiles,
    };
  }

  /**
   * The stored files looked at (those under `roots` when `onlyUnder`) and what discovery finds on disk; files that
   * moved follow their new paths (in `storedByPath`).
   */
  private async lookAtDisk(paths: readonly string[], roots: readonly string[], onlyUnder: boolean) {
    // What a warm refresh compares with the disk (not the fingerprints: they are read under the lock when needed).
    const under = onlyUnder ? pathCond(roots, 'f') : { sql: '1 = 1', params: [] };
    const stored = prepared(
      this.db,
      `SELECT path, session_id, size, mtime_ms, ino, parsed_offset, archived, meta_path, agent FROM files f
       WHERE ${under.sql}`,
    ).all(...under.params) as StoredFile[];
    const storedByPath = new Map(stored.map((f) => [f.path, f]));
    // A path gone from disk whose files the archive holds (a home deleted whole) is read from the archive alone:
    // nothing there to discover, and no error for it (the plan takes its archived files).
    const onDisk = paths.filter((path) => existsSync(path) || !hasArchivedFilesUnder(this.db, resolve(path)));
    // A flat agent file's session id is stored: discovery need not open the file again while its inode is the same.
    const discovery = await discoverAll(onDisk, {
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
        const row = this.importer.moveFile(move);
        if (row === undefined) continue;
        storedByPath.delete(move.from.path);
        storedByPath.set(row.path, row);
      }
    }
    return { stored, storedByPath, discovery };
  }

  /**
   * One file of the plan: checked for readability when unchanged, imported (into the open batch) when there is work.
   * Undefined when nothing was imported.
   */
  private async runStep(
    { file, source, explicit, unchangedOnDisk, import: toImport }: FileStep,
    job: ParseJob | undefined,
    filed: FiledAgents,
  ): Promise<(ImportOutcome & { readonly batch: Batch }) | undefined> {
    // A permission change (chmod 000) leaves size and mtime alone: an unchanged file that cannot be read now is
    // reported as a changed one is when its read fails (its indexed content is kept).
    if (unchangedOnDisk) {
      const denied = readError(file.path);
      if (denied !== undefined && explicit) throw new UnreadableFileError(file.path, denied);
      if (denied !== undefined) {
        this.unreadable.push({ code: 'unreadable_file', file: file.path, line: 0, message: denied.message });
      }
    }
    if (toImport) {
      const batch = this.batches.begin();
      const outcome = await this.importer
        .importFile(file, explicit, batch, source, job, filed.of(file))
        .catch(async (error: unknown) => {
          // Its worker's chunks not taken yet are dropped (else the worker would wait for them forever).
          job?.discard();
          // A file named on the command line that cannot be read is the user's to know about, at once.
          if (error instanceof UnreadableFileError) throw error;
          // Anything else (a bug, a value we cannot store) stops this file only (rolled back to its savepoint):
          // keep the batch so far, note the failure and go on with the next file.
          await this.batches.commit();
          recordImportFailure(this.db, file, sessionKeyOf(file), error, (sid) => {
            this.updater.recompute(sid);
            this.updater.settle();
            bumpGeneration(this.db);
          });
          return FAILED;
        });
      return { ...outcome, batch };
    }
    return undefined;
  }

  /**
   * What to refresh for these stored files: their project folders (the files themselves under narrower paths), or
   * undefined when one is not stored or its folder is gone (then a full refresh).
   */
  private projectDirsOf(changed: readonly string[], roots: readonly string[]): string[] | undefined {
    const dirs = new Set<string>();
    for (const path of changed) {
      const row = prepared(this.db, 'SELECT * FROM files WHERE path = ?').get(resolve(path)) as FileRow | undefined;
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
      const complete = this.unreadable.every(isPartlySearched);
      probe.finishChanged(dirs, complete, archiving, { files, issues, sessions, archivedFiles });
    }
    return report;
  }
}
