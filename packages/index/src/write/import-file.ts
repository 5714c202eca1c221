/**
 * The apply step of a refresh for one file: inside the open batch, as one savepoint, store what is new in it (rows a
 * parse worker read ahead, or read here), archive its new bytes, and update its row; or hold it at its last complete
 * version when its new read lost records (versions.ts).
 */
import {
  type DiscoveredFile,
  type OpenBytes,
  openFileBytes,
  type ParseIssue,
  type ReadEnd,
  UnreadableFileError,
} from '@agentdash/core';
import { messageOf } from '@agentdash/core/base';
import type Database from 'better-sqlite3';
import { adapterForFile, agentOfRow } from '../agents.js';
import { type Archive, HELD } from '../archive/archive.js';
import { awaitRewrite, heldBefore, holdFile, lossMessage, lostRecords, noteLoss } from '../archive/versions.js';
import { type FileRow, idOfKey, sessionKeyOf } from '../file-row.js';
import { prepared } from '../schema/statements.js';
import { FactTracker } from './call-fact.js';
import { type AgentFiles, copiesOfRead, sameAgents, takenCopies } from './copy-rows.js';
import { DocNumbers } from './doc-parts.js';
import { fingerprintOf } from './fingerprint.js';
import type { Writer } from './import.js';
import { IMPORT_FAILED } from './import-failure.js';
import type { Move } from './moves.js';
import type { ArchiveChunk, ParseJob } from './parse-pool.js';
import { readStartOf } from './read-start.js';
import { isUnchanged, type Source, storedMtimeOf } from './refresh-plan.js';
import type { Batch, WriteBatches } from './write-batch.js';

export interface ImportOutcome {
  readonly parsed: boolean;
  readonly bytes: number;
  readonly records: number;
  readonly issues: number;
}

/** Where a read that is not used ends (its file's import fails). */
const NOTHING_ENDED: ReadEnd = { nextOffset: 0, nextLine: 1, pendingBytes: 0, bytesRead: 0 };
const NOTHING_READ: ImportOutcome = { parsed: false, bytes: 0, records: 0, issues: 0 };
/** A file whose import failed (rolled back, its failure stored: import-failure.ts). */
export const FAILED: ImportOutcome = { parsed: false, bytes: 0, records: 0, issues: 1 };

/** Imports files one at a time into the open batch of a refresh's connection. */
export class FileImporter {
  constructor(
    private readonly db: Database.Database,
    private readonly writer: Writer,
    private readonly archive: Archive,
    private readonly batches: WriteBatches,
    /** Notes a file that could not be read now (its indexed content is kept). */
    private readonly unreadable: (issue: ParseIssue) => void,
    /** Where a subagent's file came or went (the copies of it other files hold change meaning: copy-reads.ts). */
    private readonly agentFiles: AgentFiles,
  ) {}

  /**
   * A stored file found at another path: its row, session key and archive follow it (its calls and records stay
   * where they are, rows of the file). Undefined when another process has moved or stored it meanwhile.
   */
  moveFile({ from, to }: Move): FileRow | undefined {
    const batch = this.batches.begin();
    if (prepared(this.db, 'SELECT * FROM files WHERE path = ?').get(to.path) !== undefined) return undefined;
    const key = sessionKeyOf(to);
    const moved = prepared(
      this.db,
      `UPDATE files SET path = ?, project_dir = ?, role = ?, session_id = ?, agent_id = ?, meta_path = ?, ino = ?,
         archived = 0 WHERE id = ? AND path = ?`,
    ).run(to.path, to.projectDir, to.role, key, to.agentId ?? null, to.metaPath ?? null, to.ino, from.id, from.path);
    if (moved.changes === 0) return undefined;
    this.archive.move(from.path, to, from.meta_path);
    if (from.agent_id !== null) this.agentFiles.lost(from.session_id);
    if (to.agentId !== undefined) this.agentFiles.gained(key);
    // A file that changed session (a main file moved alone, or beside its subagents' files): what each session's
    // copies are depends on all its files, and the moved one looks unchanged (`isUnchanged`) to a read.
    if (from.session_id !== key) {
      this.agentFiles.lost(from.session_id);
      this.agentFiles.lost(key);
    }
    batch.sessions.add(from.session_id);
    batch.sessions.add(key);
    return prepared(this.db, 'SELECT * FROM files WHERE path = ?').get(to.path) as FileRow;
  }

  /** Drop a file that is gone (read again under the lock: another process may have dropped it already). */
  removeFile(path: string): boolean {
    const row = prepared(this.db, 'SELECT * FROM files WHERE path = ?').get(path) as FileRow | undefined;
    if (row === undefined) return false;
    const batch = this.batches.begin();
    for (const id of this.writer.idsLeaving(row.id)) batch.touched.add(id);
    batch.sessions.add(row.session_id);
    if (row.agent_id !== null) this.agentFiles.lost(row.session_id);
    this.writer.clearFile(row.id);
    prepared(this.db, 'DELETE FROM files WHERE id = ?').run(row.id);
    return true;
  }

  /**
   * Import what is new in one file, inside the open batch, as one savepoint. `filed`: the agent ids with a file in
   * its session now (copy-rows.ts); `readAgain`: read it from byte 0 whatever changed (which of its copies are a
   * thread did: `CopyReads`).
   */
  async importFile(
    file: DiscoveredFile,
    explicit: boolean,
    batch: Batch,
    source: Source,
    job: ParseJob | undefined,
    filed: readonly string[],
    readAgain = false,
  ): Promise<ImportOutcome> {
    const sessionId = sessionKeyOf(file);
    // Read again under the write lock: another process may have imported this file since the refresh started.
    const storedRow = prepared(this.db, 'SELECT * FROM files WHERE path = ?').get(file.path) as FileRow | undefined;
    // A worker read the file from byte 0, as a new file, knowing the same agents' files: anything else is read here.
    const parsed = storedRow === undefined && job !== undefined && sameAgents(job.filed, filed) ? job : undefined;
    if (parsed === undefined) job?.discard();
    const openBytes: OpenBytes = source.fromArchive ? async (path) => this.archive.source(path) : openFileBytes;
    const archiveNew = source.archiving && !source.fromArchive;
    if (storedRow?.archived === HELD && source.fromArchive && !readAgain) {
      // Held at its last complete version, which the archive holds: gone from disk now, it is read from there as is.
      // (Read again, that version is read again from the archive: copy-reads.ts.)
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
    if (storedRow !== undefined && !readAgain && isUnchanged(storedRow, file, sessionId)) {
      prepared(this.db, 'UPDATE files SET archived = ? WHERE id = ?').run(source.fromArchive ? 1 : 0, storedRow.id);
      if (archiveNew) await this.archiveUpTo(file, storedRow.parsed_offset).catch(() => undefined);
      return NOTHING_READ;
    }

    const { touched, sessions } = batch;
    sessions.add(sessionId);
    // An agent's file new to its session: the copies of it other files hold stop being its thread.
    if (file.agentId !== undefined && storedRow?.session_id !== sessionId) this.agentFiles.gained(sessionId);
    const counts = { records: 0, issues: 0 };
    const savepoint = this.writer.savepoint('file_import');
    try {
      const start = await readStartOf(storedRow, file, sessionId, readAgain, openBytes);
      const restart = start !== 'append';
      // What the file held, to tell whether its new read lost records (then it is held at that version).
      const before =
        restart && storedRow !== undefined && !source.fromArchive ? heldBefore(this.db, storedRow, file) : undefined;
      const current = this.startRow(file, sessionId, storedRow, restart, touched, sessions);
      // Read on from its stored offset: what an earlier read said of the lines from there (a last line cut short,
      // held back: ReadEnd.pendingBytes) is said again by this read, or no longer (the line was finished).
      if (!restart)
        prepared(this.db, 'DELETE FROM issues WHERE file_id = ? AND line >= ?').run(current.id, current.next_line);
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
      const docs = new DocNumbers();
      // Read on after its earlier reads: the copies they took are not taken again.
      const copies = copiesOfRead(adapterForFile(file), filed, () => (restart ? [] : takenCopies(this.db, current.id)));
      // The new read's first problem: why a file that lost records does not parse now, when that is why.
      let firstIssue: ParseIssue | undefined;
      const readHere = () =>
        adapterForFile(file).streamRecords(
          file,
          (event) => {
            if (event.kind === 'issue') firstIssue ??= event.issue;
            if (storeError !== undefined) return;
            try {
              this.writer.handle(current, event, touched, counts, facts, copies, docs);
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
        this.unreadable({
          code: 'unreadable_file',
          file: file.path,
          line: 0,
          message: messageOf(error),
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
        const kept = source.archivedBytes >= storedRow.parsed_offset;
        // a document rewritten whole (Gemini's .json) caught mid-rewrite: see versions.ts `awaitRewrite`
        const rewriting = end.stillWriting === true && !adapterForFile(file).capabilities.appendOnly;
        if (lost > 0 && (kept || rewriting)) {
          savepoint.rollback();
          const message = () => lossMessage(before, lost, true, firstIssue, end.pendingBytes);
          if (rewriting) awaitRewrite(this.db, storedRow, file, kept);
          else await holdFile(this.db, this.archive, storedRow, file, source.archiving, message());
          return { parsed: true, bytes: end.bytesRead, records: 0, issues: rewriting ? 0 : 1 };
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
        storedMtimeOf(file, end),
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
    await this.archiveUpTo(file, 0); // the file and its meta file noted, no bytes
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
    const headless = file.headless === true ? 1 : 0;
    const fields = [file.role, sessionId, file.agentId ?? null, file.metaPath ?? null] as const;
    if (storedRow === undefined) {
      const id = prepared(
        this.db,
        `INSERT INTO files (path, project_dir, role, session_id, agent_id, meta_path, size, mtime_ms, ino, agent, headless)
           VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0, ?, ?)`,
      ).run(file.path, file.projectDir, ...fields, file.agent, headless).lastInsertRowid;
      return rowById(id);
    }
    if (!restart) {
      // The session kept in another project folder too (the same id): this append may make this copy the newest,
      // which owns the calls they share (call-facts.ts `firstCall`): their facts are planned again.
      const elsewhere = prepared(this.db, 'SELECT 1 FROM sessions WHERE session_id = ? AND id <> ? LIMIT 1').get(
        idOfKey(storedRow.session_id),
        storedRow.session_id,
      );
      if (elsewhere !== undefined) {
        const ids = prepared(this.db, 'SELECT tool_use_id FROM calls WHERE file_id = ?').pluck().all(storedRow.id);
        for (const id of ids as string[]) touched.add(id);
      }
      return storedRow;
    }
    for (const id of this.writer.idsLeaving(storedRow.id)) touched.add(id);
    sessions.add(storedRow.session_id);
    this.writer.clearFile(storedRow.id);
    prepared(
      this.db,
      `UPDATE files SET project_dir = ?, role = ?, session_id = ?, agent_id = ?, meta_path = ?, headless = ?,
         parsed_offset = 0, next_line = 1, records = 0, unknown_records = 0 WHERE id = ?`,
    ).run(storedRow.project_dir, ...fields, headless, storedRow.id);
    return rowById(storedRow.id);
  }
}
