/**
 * What a refresh does, decided before anything is written: which stored files are gone, which files are read from the
 * archive, which are read at all and in which order, and which parse workers read ahead. Pure: the disk is asked
 * through the functions in `PlanInput` only, so the plan is tested without files or SQLite (refresh-plan.test.ts).
 */

import type { DiscoveredFile, ReadEnd } from '@agentdash/core';
import { isUnder } from '@agentdash/core/base';
import { agentOfRow } from '../agents.js';
import type { ArchivedFileRow } from '../archive/archive.js';
import { type FileRow, sessionKeyOf } from '../file-row.js';

/** The columns of a stored file that a refresh compares with the disk. */
export type StoredFile = Pick<
  FileRow,
  'path' | 'session_id' | 'size' | 'mtime_ms' | 'ino' | 'parsed_offset' | 'archived' | 'meta_path' | 'agent'
>;

/** Where one file's bytes come from in this refresh, and whether new bytes go to the archive. */
export interface Source {
  readonly fromArchive: boolean;
  readonly archiving: boolean;
  /** Bytes of the file archived when the refresh started. */
  readonly archivedBytes: number;
}

/** Whether the stored row describes the file as it is on disk (same inode, size, mtime and session). */
export function isUnchanged(row: StoredFile | undefined, file: DiscoveredFile, sessionId: string): boolean {
  return (
    row !== undefined &&
    row.ino === file.ino &&
    row.size === file.size &&
    row.mtime_ms === file.mtimeMs &&
    row.session_id === sessionId
  );
}

/**
 * The mtime stored for a file after a read: its own, except for a file whose last bytes were held back, unreported,
 * while it may still be being written (core's `WRITE_SETTLE_MS`: a JSONL line or a document caught mid-write,
 * `ReadEnd.stillWriting`): 0, no file's mtime, so the next refresh (and the warm path) takes it as changed and reads
 * it again, and a record left cut short is reported then rather than held back unseen.
 */
export function storedMtimeOf(file: DiscoveredFile, end: ReadEnd): number {
  return end.stillWriting === true ? 0 : file.mtimeMs;
}

/**
 * Work on an unchanged file: its archived flag is wrong (it went or came back), or it still has bytes to archive
 * (indexed before the archive existed, or while archiving was off).
 */
export function needsArchiveWork(row: StoredFile | undefined, source: Source): boolean {
  if (row === undefined) return false;
  if ((row.archived === 1) !== source.fromArchive) return true;
  return !source.fromArchive && source.archiving && source.archivedBytes < row.parsed_offset;
}

/**
 * Files ordered so the most recently active sessions are read first (a session's files together, by path), so a
 * list that fills while a first index is built starts with what the user most likely wants.
 */
export function newestSessionsFirst(files: readonly DiscoveredFile[]): DiscoveredFile[] {
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

/**
 * A file known only from the archive (gone from disk), as discovery would describe it: its agent as the archive keeps
 * it (else as `agent`, its stored row's, for a file archived before the archive kept one).
 */
export function discoveredFromArchive(row: ArchivedFileRow, agent: string | undefined): DiscoveredFile {
  return {
    path: row.path,
    agent: agentOfRow(row.agent ?? agent),
    ...(row.headless === 1 ? { headless: true as const } : {}),
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

/** What a plan is made from: the stored files, what discovery found, the archive, and the disk as functions. */
export interface PlanInput {
  /** The refreshed paths, resolved. */
  readonly roots: readonly string[];
  /** The stored files looked at, as read when the refresh started. */
  readonly stored: readonly StoredFile[];
  /** The same by path, after files that moved were followed to their new paths. */
  readonly storedByPath: ReadonlyMap<string, StoredFile>;
  /** The files discovery found on disk. */
  readonly discovered: readonly DiscoveredFile[];
  /** Archived bytes by path. */
  readonly archived: ReadonlyMap<string, number>;
  /** The archive's row of a path. */
  readonly archivedFile: (path: string) => ArchivedFileRow | undefined;
  /** Whether new bytes are archived in this refresh. */
  readonly archiving: boolean;
  readonly exists: (path: string) => boolean;
  /** True when the path cannot be looked at for lack of permission (not because it is gone). */
  readonly hiddenByPermissions: (path: string) => boolean;
}

/** One file of the plan, in import order. */
export interface FileStep {
  readonly file: DiscoveredFile;
  readonly source: Source;
  /** Named on the command line: a failure to read it is the user's to know about at once. */
  readonly explicit: boolean;
  /** Read from disk and as stored: only checked for readability (a permission change leaves size and mtime alone). */
  readonly unchangedOnDisk: boolean;
  /** Something to do under the write lock: new bytes, a file read again, or archive work. */
  readonly import: boolean;
}

export interface RefreshPlan {
  /** Stored files gone from disk and not archived: they leave the index. */
  readonly gone: readonly string[];
  /** Stored files whose subagent `.meta.json` appeared (or went) since they were read. */
  readonly metaPaths: readonly { readonly path: string; readonly metaPath: string | null }[];
  /** Archived files under the roots gone from disk: read from the archive. */
  readonly fromArchive: readonly DiscoveredFile[];
  /** Every file, newest sessions first (a session's files together). */
  readonly steps: readonly FileStep[];
  readonly bytesTotal: number;
  /** New files on disk, in import order: what parse workers may read ahead of the writer. */
  readonly readAhead: readonly DiscoveredFile[];
  readonly readAheadBytes: number;
}

export function planRefresh(input: PlanInput): RefreshPlan {
  const { roots, storedByPath, archived } = input;
  const discovered = new Set(input.discovered.map((f) => f.path));
  const underRoots = (path: string) => roots.some((root) => isUnder(path, root));
  const fromArchive: DiscoveredFile[] = [];
  for (const path of archived.keys()) {
    if (discovered.has(path) || !underRoots(path) || input.exists(path)) continue;
    const row = input.archivedFile(path);
    if (row !== undefined) fromArchive.push(discoveredFromArchive(row, storedByPath.get(path)?.agent));
  }
  const archivedPaths = new Set(fromArchive.map((f) => f.path));
  const metaPaths = input.discovered.flatMap((file) => {
    const row = storedByPath.get(file.path);
    return row !== undefined && row.meta_path !== (file.metaPath ?? null)
      ? [{ path: row.path, metaPath: file.metaPath ?? null }]
      : [];
  });
  const gone = input.stored
    .filter(
      (row) =>
        !discovered.has(row.path) &&
        !archived.has(row.path) &&
        // In a folder that cannot be read now (chmod 000): still there, so kept; the folder is reported unreadable.
        !input.hiddenByPermissions(row.path) &&
        (underRoots(row.path) || !input.exists(row.path)),
    )
    .map((row) => row.path);
  const explicitFiles = new Set(roots.filter((r) => r.endsWith('.jsonl')));
  const files = newestSessionsFirst([...input.discovered, ...fromArchive]);
  const steps = files.map((file): FileStep => {
    const source: Source = {
      fromArchive: archivedPaths.has(file.path),
      archiving: input.archiving,
      archivedBytes: archived.get(file.path) ?? 0,
    };
    const row = storedByPath.get(file.path);
    const unchanged = isUnchanged(row, file, sessionKeyOf(file));
    return {
      file,
      source,
      explicit: explicitFiles.has(file.path),
      unchangedOnDisk: !source.fromArchive && unchanged,
      // Unchanged since this refresh started: no lock needed (another process can only have stored the same).
      import: !unchanged || needsArchiveWork(row, source),
    };
  });
  const readAhead = files.filter((f) => !archivedPaths.has(f.path) && !storedByPath.has(f.path));
  return {
    gone,
    metaPaths,
    fromArchive,
    steps,
    bytesTotal: files.reduce((n, f) => n + f.size, 0),
    readAhead,
    readAheadBytes: readAhead.reduce((n, f) => n + f.size, 0),
  };
}
