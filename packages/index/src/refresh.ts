/** Bringing the index up to date with the transcript files on disk: discover, drop what is gone, read what grew. */
import { existsSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  type DiscoveredFile,
  discoverFiles,
  type ParseIssue,
  streamRecords,
  UnreadableFileError,
} from '@agentdash/core';
import type Database from 'better-sqlite3';
import { type FileRow, idOfKey, sessionKeyOf, Writer } from './import.js';
import { IMPORT_FAILED, recordImportFailure } from './import-failure.js';
import { isUnder, pathCond, scopeSql } from './scope.js';
import { SessionUpdater } from './sessions.js';
import type { RefreshOptions, RefreshReport } from './types.js';

/** Bytes kept from the start of a file and from just before its parsed offset, to notice a rewrite in place. */
const FINGERPRINT_BYTES = 64;

/**
 * Hex of the first (up to) 64 bytes and of the 64 bytes before `offset`; '' at offset 0 or when the file cannot be
 * read.
 */
async function fingerprintOf(path: string, offset: number): Promise<string> {
  if (offset <= 0) return '';
  const length = Math.min(FINGERPRINT_BYTES, offset);
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return '';
  try {
    const head = Buffer.alloc(length);
    const tail = Buffer.alloc(length);
    const a = await handle.read(head, 0, length, 0);
    const b = await handle.read(tail, 0, length, offset - length);
    return `${head.subarray(0, a.bytesRead).toString('hex')}:${tail.subarray(0, b.bytesRead).toString('hex')}`;
  } finally {
    await handle.close();
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

const NOTHING_READ: ImportOutcome = { parsed: false, bytes: 0, records: 0, issues: 0 };
const FAILED: ImportOutcome = { parsed: false, bytes: 0, records: 0, issues: 1 };

/** Runs refreshes one at a time over one connection; each file's import is one transaction. */
export class Refresher {
  private readonly writer: Writer;
  private readonly updater: SessionUpdater;
  private queue: Promise<unknown> = Promise.resolve();
  /** Files that could not be read during the last refresh. */
  private unreadable: ParseIssue[] = [];

  constructor(private readonly db: Database.Database) {
    this.writer = new Writer(db);
    this.updater = new SessionUpdater(db);
  }

  /** Problems of the last refresh that are not stored with a file: unreadable files and folders. */
  problems(): readonly ParseIssue[] {
    return this.unreadable;
  }

  refresh(paths: readonly string[], options: RefreshOptions = {}): Promise<RefreshReport> {
    // One refresh at a time: each file's import is a transaction on the one connection.
    const run = this.queue.then(
      () => this.doRefresh(paths, options),
      () => this.doRefresh(paths, options),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async doRefresh(paths: readonly string[], options: RefreshOptions): Promise<RefreshReport> {
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
    const stored = this.db.prepare('SELECT * FROM files').all() as FileRow[];
    const storedByPath = new Map(stored.map((f) => [f.path, f]));
    // A flat agent file's session id is stored: discovery need not open the file again while its inode is the same.
    const discovery = await discoverFiles(paths, {
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

    // A subagent's .meta.json may appear after its transcript was first read.
    for (const file of discovery.files) {
      const row = storedByPath.get(file.path);
      if (row !== undefined && row.meta_path !== (file.metaPath ?? null)) {
        this.db.prepare('UPDATE files SET meta_path = ? WHERE id = ?').run(file.metaPath ?? null, row.id);
      }
    }

    let filesRemoved = 0;
    for (const row of stored) {
      if (discovered.has(row.path)) continue;
      // In a folder that cannot be read now (chmod 000): still there, so kept; the folder is reported unreadable.
      if (isHiddenByPermissions(row.path)) continue;
      if (roots.some((root) => isUnder(row.path, root)) || !existsSync(row.path)) {
        this.removeFile(row);
        filesRemoved += 1;
      }
    }

    let filesParsed = 0;
    let bytesParsed = 0;
    let records = 0;
    let newIssues = 0;
    let done = 0;
    const total = discovery.files.length;
    let bytesDone = 0;
    const bytesTotal = discovery.files.reduce((sum, f) => sum + f.size, 0);
    options.onProgress?.({ done, total, file: '', bytesDone, bytesTotal });
    const explicitFiles = new Set(roots.filter((r) => r.endsWith('.jsonl')));
    for (const file of newestSessionsFirst(discovery.files)) {
      await options.beforeFile?.(file.path);
      const outcome = await this.importFile(file, storedByPath.get(file.path), explicitFiles.has(file.path)).catch(
        (error: unknown) => {
          // A file named on the command line that cannot be read is the user's to know about, at once.
          if (error instanceof UnreadableFileError) throw error;
          // Another process holds the index (serve and a CLI command at once): leave the file for the next refresh.
          if (String((error as { code?: unknown } | null)?.code).startsWith('SQLITE_BUSY')) return NOTHING_READ;
          // Anything else (a bug, a value we cannot store) stops this file only: note it and go on with the next.
          recordImportFailure(this.db, file, sessionKeyOf(file), error, (sid) => this.updater.recompute(sid));
          return FAILED;
        },
      );
      if (outcome.parsed) filesParsed += 1;
      bytesParsed += outcome.bytes;
      records += outcome.records;
      newIssues += outcome.issues;
      done += 1;
      bytesDone += file.size;
      options.onProgress?.({ done, total, file: file.path, bytesDone, bytesTotal });
    }

    const scoped = scopeSql({ paths });
    const inPaths = pathCond(paths, 'f');
    const issues =
      (this.db
        .prepare(`SELECT COUNT(*) FROM issues i JOIN files f ON f.id = i.file_id WHERE ${inPaths.sql}`)
        .pluck()
        .get(...inPaths.params) as number) + this.unreadable.length;
    const sessions = this.db
      .prepare(`SELECT COUNT(*) FROM sessions s WHERE ${scoped.sql}`)
      .pluck()
      .get(...scoped.params) as number;
    return { files: total, filesParsed, bytesParsed, records, issues, newIssues, filesRemoved, sessions };
  }

  private removeFile(row: FileRow): void {
    this.db.transaction(() => {
      const ids = this.writer.idsOfFile(row.id);
      this.db.prepare('DELETE FROM files WHERE id = ?').run(row.id);
      const sessions = new Set<string>([row.session_id]);
      for (const id of ids) this.writer.recomputeCall(id, sessions);
      for (const sid of sessions) this.updater.recompute(sid);
    })();
  }

  private async importFile(
    file: DiscoveredFile,
    storedRow: FileRow | undefined,
    explicit: boolean,
  ): Promise<ImportOutcome> {
    const sessionId = sessionKeyOf(file);
    const unchanged =
      storedRow !== undefined &&
      storedRow.ino === file.ino &&
      storedRow.size === file.size &&
      storedRow.mtime_ms === file.mtimeMs &&
      storedRow.session_id === sessionId;
    if (unchanged) return NOTHING_READ;

    const touched = new Set<string>();
    const sessions = new Set<string>([sessionId]);
    const counts = { records: 0, issues: 0 };
    this.db.exec('BEGIN IMMEDIATE');
    // Another process sharing the index (serve and a CLI loop) may have read this file since the refresh began:
    // go on from the row as it is now, or the same bytes would be stored twice (issue 13).
    const latest = this.db.prepare('SELECT * FROM files WHERE path = ?').get(file.path) as FileRow | undefined;
    if (
      latest !== undefined &&
      latest.ino === file.ino &&
      latest.size === file.size &&
      latest.mtime_ms === file.mtimeMs &&
      latest.session_id === sessionId
    ) {
      this.db.exec('ROLLBACK');
      return NOTHING_READ;
    }
    storedRow = latest;
    try {
      const restart =
        storedRow === undefined ||
        storedRow.ino !== file.ino ||
        file.size < storedRow.parsed_offset ||
        storedRow.session_id !== sessionId ||
        // Rewritten in place (same inode, not shorter): the bytes before the offset are not the ones we read.
        (await fingerprintOf(file.path, storedRow.parsed_offset)) !== storedRow.tail;
      const current = this.startRow(file, sessionId, storedRow, restart, touched, sessions);
      let end: Awaited<ReturnType<typeof streamRecords>>;
      // A failure to store (a bug, a full disk) must not pass for an unreadable file.
      let storeError: unknown;
      try {
        end = await streamRecords(
          file.path,
          (event) => {
            if (storeError !== undefined) return;
            try {
              this.writer.handle(current, event, touched, counts);
            } catch (error) {
              storeError = error;
            }
          },
          { startOffset: current.parsed_offset, startLine: current.next_line },
        );
      } catch (error) {
        if (explicit) throw new UnreadableFileError(file.path, error);
        // Unreadable now (permissions, vanished): keep what we had, note it, move on.
        this.db.exec('ROLLBACK');
        this.unreadable.push({
          code: 'unreadable_file',
          file: file.path,
          line: 0,
          message: error instanceof Error ? error.message : String(error),
        });
        return NOTHING_READ;
      }
      if (storeError !== undefined) throw storeError;
      // Records appended to a file already read, at the file's modification time: while it is recent, the session
      // is being written now (live). A refresh long after the append (a CLI run days later) does not make it live.
      const appended = !restart && counts.records > 0 ? file.mtimeMs : current.appended_ms;
      this.db
        .prepare(
          `UPDATE files SET size = ?, mtime_ms = ?, ino = ?, parsed_offset = ?, next_line = ?, records = records + ?,
             tail = ?, appended_ms = ? WHERE id = ?`,
        )
        .run(
          file.size,
          file.mtimeMs,
          file.ino,
          end.nextOffset,
          end.nextLine,
          counts.records,
          await fingerprintOf(file.path, end.nextOffset),
          appended,
          current.id,
        );
      for (const id of touched) this.writer.recomputeCall(id, sessions);
      this.db.prepare('DELETE FROM issues WHERE file_id = ? AND code = ?').run(current.id, IMPORT_FAILED);
      for (const sid of sessions) this.updater.recompute(sid);
      this.db.exec('COMMIT');
      return { parsed: true, bytes: end.bytesRead, records: counts.records, issues: counts.issues };
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
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
    const rowById = (id: number | bigint) => this.db.prepare('SELECT * FROM files WHERE id = ?').get(id) as FileRow;
    // The project folder is kept as first discovered: a file passed on its own (e.g. a 2.1 subagent file) is
    // discovered with its own folder as project folder, which must not move it or make it re-read.
    if (storedRow === undefined) {
      const id = this.db
        .prepare(
          `INSERT INTO files (path, project_dir, role, session_id, agent_id, meta_path, size, mtime_ms, ino)
           VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0)`,
        )
        .run(
          file.path,
          file.projectDir,
          file.role,
          sessionId,
          file.agentId ?? null,
          file.metaPath ?? null,
        ).lastInsertRowid;
      return rowById(id);
    }
    if (!restart) return storedRow;
    for (const id of this.writer.idsOfFile(storedRow.id)) touched.add(id);
    sessions.add(storedRow.session_id);
    this.writer.clearFile(storedRow.id);
    this.db
      .prepare(
        `UPDATE files SET project_dir = ?, role = ?, session_id = ?, agent_id = ?, meta_path = ?,
         parsed_offset = 0, next_line = 1, records = 0 WHERE id = ?`,
      )
      .run(storedRow.project_dir, file.role, sessionId, file.agentId ?? null, file.metaPath ?? null, storedRow.id);
    return rowById(storedRow.id);
  }
}
