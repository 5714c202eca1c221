/**
 * The archive: a compressed copy of every transcript's bytes, kept in the database so that a session stays complete
 * after Claude Code deletes its files. Bytes are stored in chunks (at most 4 MiB of transcript each, compressed with
 * the codec each row names: archive-codec.ts), so an append adds a chunk instead of rewriting one. Everything else in
 * the database can be rebuilt from it.
 */
import { existsSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { type ByteSource, type DiscoveredFile, type OpenBytes, openFileBytes } from '@agentdash/core';
import type Database from 'better-sqlite3';
import { pathCond } from '../read/scope.js';
import { preparedOnUse } from '../schema/prepared.js';
import { fingerprintOf } from '../write/fingerprint.js';
import { type Codec, compressChunk, compressChunkAsync, decompressChunk } from './archive-codec.js';

/** Transcript bytes per chunk. */
export const CHUNK_BYTES = 4 * 1024 * 1024;

/** What the archive knows of a transcript file, enough to index it again without the file. */
export interface ArchivedFileRow {
  readonly path: string;
  readonly project_dir: string;
  readonly role: 'main' | 'subagent';
  readonly session_id: string | null;
  readonly agent_id: string | null;
  readonly meta_path: string | null;
  /** The file's size, mtime and inode when it was last read from disk. */
  readonly file_size: number;
  readonly mtime_ms: number;
  readonly ino: number;
  /** Bytes archived (from offset 0, without gaps); kept in step with the chunks. */
  readonly archived_bytes: number;
  /** The file's agent and whether it is a headless run's output (null and 0 for files archived before step 29). */
  readonly agent: string | null;
  readonly headless: number;
}

interface ChunkRow {
  readonly id: number;
  readonly offset: number;
  readonly length: number;
  readonly codec: Codec;
}

export class ArchiveSource implements ByteSource {
  private cached: { index: number; bytes: Buffer } | undefined;
  constructor(
    private readonly chunks: readonly ChunkRow[],
    private readonly data: (id: number) => Buffer,
    /** The archived file's path (for errors). */
    private readonly path: string,
  ) {}

  async read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
    return { bytesRead: this.readSync(buffer, offset, length, position) };
  }

  /** Copy archived bytes at `position` into `buffer`; returns how many (0 past the end). */
  readSync(buffer: Uint8Array, offset: number, length: number, position: number): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const chunk = this.chunks[mid] as ChunkRow;
      if (position < chunk.offset) hi = mid - 1;
      else if (position >= chunk.offset + chunk.length) lo = mid + 1;
      else {
        found = mid;
        break;
      }
    }
    if (found === -1) return 0;
    const chunk = this.chunks[found] as ChunkRow;
    if (this.cached?.index !== found) {
      this.cached = { index: found, bytes: decompressChunk(chunk.codec, this.data(chunk.id), this.path) };
    }
    const from = position - chunk.offset;
    const n = Math.min(length, this.cached.bytes.length - from);
    buffer.set(this.cached.bytes.subarray(from, from + n), offset);
    return n;
  }

  async close(): Promise<void> {
    this.cached = undefined;
  }
}

/**
 * What the archive holds: its files, their bytes and the bytes stored (read from `archive_chunk_sizes` alone), and
 * the versions kept beside files (`Archive.keepVersion`).
 */
export const ARCHIVE_SIZE = `SELECT (SELECT COUNT(*) FROM archive_files) AS files, COALESCE(SUM(length), 0) AS raw,
    COALESCE(SUM(length(data)), 0) AS stored, (SELECT COUNT(*) FROM archive_versions) AS versions FROM archive_chunks`;

/**
 * Where the chunks of the version kept beside a file are stored: never a path on disk (it holds a NUL), so no
 * refresh takes it for a transcript.
 */
export function versionKey(path: string): string {
  return `${path}\u0000version`;
}

/**
 * `files.archived` of a file held at its last complete version: the copy on disk lost records (it shrank, was
 * replaced or stopped parsing), so the file's rows and reads come from its archive while the copy on disk is
 * archived beside it (`keepVersion`). 1: gone from disk, read from the archive; 0: read from disk.
 */
export const HELD = 2;

/** Reading and writing archived bytes. */
export class Archive {
  private readonly s;
  constructor(private readonly db: Database.Database) {
    this.s = preparedOnUse({
      chunks: () => db.prepare('SELECT id, offset, length, codec FROM archive_chunks WHERE path = ? ORDER BY offset'),
      data: () => db.prepare('SELECT data FROM archive_chunks WHERE id = ?').pluck(),
      end: () => db.prepare('SELECT MAX(offset + length) FROM archive_chunks WHERE path = ?').pluck(),
      sizeRead: () => db.prepare('SELECT file_size FROM archive_files WHERE path = ?').pluck(),
      insert: () =>
        db.prepare('INSERT OR REPLACE INTO archive_chunks (path, offset, length, codec, data) VALUES (?, ?, ?, ?, ?)'),
      deleteFrom: () => db.prepare('DELETE FROM archive_chunks WHERE path = ? AND offset >= ?'),
      deleteChunks: () => db.prepare('DELETE FROM archive_chunks WHERE path = ?'),
      deleteFile: () => db.prepare('DELETE FROM archive_files WHERE path = ?'),
      file: () => db.prepare('SELECT * FROM archive_files WHERE path = ?'),
      bytesByPath: () => db.prepare('SELECT path, archived_bytes FROM archive_files').raw(),
      setBytes: () =>
        db.prepare(
          `UPDATE archive_files SET archived_bytes = (SELECT COALESCE(MAX(offset + length), 0) FROM archive_chunks WHERE path = @path)
         WHERE path = @path`,
        ),
      held: () => db.prepare(`SELECT 1 FROM files WHERE path = ? AND archived = ${HELD}`).pluck(),
      upsertVersion: () =>
        db.prepare(
          `INSERT OR REPLACE INTO archive_versions (path, reason, file_size, mtime_ms, ino, tail, kept_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ),
      versionRow: () => db.prepare('SELECT file_size, ino, tail FROM archive_versions WHERE path = ?'),
      growVersion: () => db.prepare('UPDATE archive_versions SET file_size = ?, mtime_ms = ?, tail = ? WHERE path = ?'),
      deleteVersion: () => db.prepare('DELETE FROM archive_versions WHERE path = ?'),
      version: () => db.prepare('SELECT 1 FROM archive_versions WHERE path = ?').pluck(),
      moveChunks: () => db.prepare('UPDATE archive_chunks SET path = ? WHERE path = ?'),
      moveVersion: () => db.prepare('UPDATE archive_versions SET path = ? WHERE path = ?'),
      upsertFile: () =>
        db.prepare(
          `INSERT INTO archive_files (path, project_dir, role, session_id, agent_id, meta_path, file_size, mtime_ms, ino,
           agent, headless)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (path) DO UPDATE SET project_dir = excluded.project_dir, role = excluded.role,
           session_id = excluded.session_id, agent_id = excluded.agent_id, meta_path = excluded.meta_path,
           file_size = excluded.file_size, mtime_ms = excluded.mtime_ms, ino = excluded.ino, agent = excluded.agent,
           headless = excluded.headless`,
        ),
    });
  }

  /** What the archive knows of one file. */
  file(path: string): ArchivedFileRow | undefined {
    return this.s.file.get(path) as ArchivedFileRow | undefined;
  }

  /** Archived bytes per archived file (cheap: what a warm refresh needs of every file). */
  bytesByPath(under?: readonly string[]): Map<string, number> {
    if (under === undefined) return new Map(this.s.bytesByPath.all() as [string, number][]);
    const cond = pathCond(under, 'a', ['path']);
    const rows = this.db.prepare(`SELECT path, archived_bytes FROM archive_files a WHERE ${cond.sql}`).raw();
    return new Map(rows.all(...cond.params) as [string, number][]);
  }

  /** Bytes archived of this path (they run from offset 0 without gaps). */
  end(path: string): number {
    return (this.s.end.get(path) as number | null) ?? 0;
  }

  /** The archived bytes of a path, as a byte source (empty when nothing is archived). */
  source(path: string): ArchiveSource {
    const chunks = this.s.chunks.all(path) as ChunkRow[];
    return new ArchiveSource(chunks, (id) => this.s.data.get(id) as Buffer, path);
  }

  /** Files on disk, else their archived bytes (and those of a file held at its last complete version). */
  readonly openBytes: OpenBytes = async (path) => {
    if (existsSync(path) && this.s.held.get(path) === undefined) return openFileBytes(path);
    // A file read empty has nothing to archive: gone, it is still read as it was, empty.
    if (this.end(path) === 0 && this.s.sizeRead.get(path) !== 0) {
      throw Object.assign(new Error(`ENOENT: no such file and nothing archived: ${path}`), { code: 'ENOENT' });
    }
    return this.source(path);
  };

  /** Note (or update) what is known of a file read from disk. */
  noteFile(file: DiscoveredFile): void {
    this.s.upsertFile.run(
      file.path,
      file.projectDir,
      file.role,
      file.sessionId ?? null,
      file.agentId ?? null,
      file.metaPath ?? null,
      file.size,
      file.mtimeMs,
      file.ino,
      file.agent,
      file.headless === true ? 1 : 0,
    );
  }

  /** Forget a path's archived bytes (before archiving a rewritten file again from byte 0, or on purpose). */
  clear(path: string): void {
    this.s.deleteChunks.run(path);
    this.s.setBytes.run({ path });
  }

  /**
   * Keep the copy of a file now on disk beside its archive (which holds its last complete version): the copy lost
   * records, for `reason`. One copy per file: a newer one replaces it.
   */
  async keepVersion(file: DiscoveredFile, reason: string): Promise<void> {
    const key = versionKey(file.path);
    this.s.deleteChunks.run(key);
    const tail = await fingerprintOf(file.path, file.size);
    this.s.upsertVersion.run(file.path, reason, file.size, file.mtimeMs, file.ino, tail, Date.now());
    await this.archiveRange(file.path, 0, file.size, key);
  }

  /**
   * The copy kept beside a held file, grown on disk by appends only (same inode, its bytes so far unchanged): its
   * new bytes are archived after it, and true is returned; false when the copy changed otherwise (or none is kept).
   */
  async growVersion(file: DiscoveredFile): Promise<boolean> {
    const row = this.s.versionRow.get(file.path) as { file_size: number; ino: number; tail: string } | undefined;
    if (row === undefined || row.ino !== file.ino || file.size < row.file_size) return false;
    if ((await fingerprintOf(file.path, row.file_size)) !== row.tail) return false;
    const key = versionKey(file.path);
    await this.archiveRange(file.path, this.end(key), file.size, key);
    this.s.growVersion.run(file.size, file.mtimeMs, await fingerprintOf(file.path, file.size), file.path);
    return true;
  }

  /** Whether a version is kept beside this file. */
  hasVersion(path: string): boolean {
    return this.s.version.get(path) !== undefined;
  }

  /** Drop the version kept beside a file (it holds every record again). */
  dropVersion(path: string): void {
    this.s.deleteChunks.run(versionKey(path));
    this.s.deleteVersion.run(path);
  }

  /** A file moved (a project folder renamed): its archived bytes, its version and what is known of it follow. */
  move(from: string, file: DiscoveredFile, metaFrom: string | null): void {
    if (from === file.path) return;
    this.forget(file.path, file.metaPath ?? null);
    this.s.moveChunks.run(file.path, from);
    this.s.moveChunks.run(versionKey(file.path), versionKey(from));
    this.s.moveVersion.run(file.path, from);
    if (metaFrom !== null && file.metaPath !== undefined) this.s.moveChunks.run(file.metaPath, metaFrom);
    const row = this.file(from);
    if (row === undefined) return;
    this.s.deleteFile.run(from);
    this.noteFile({ ...file, size: row.file_size, mtimeMs: row.mtime_ms, ino: row.ino });
    this.s.setBytes.run({ path: file.path });
  }

  /** Forget a file entirely: its bytes, its meta file's bytes, its kept version and what is known of it. */
  forget(path: string, metaPath: string | null): void {
    this.dropVersion(path);
    this.s.deleteChunks.run(path);
    if (metaPath !== null) this.s.deleteChunks.run(metaPath);
    this.s.deleteFile.run(path);
  }

  /**
   * Archive the bytes `[from, to)` of a file on disk, chunk by chunk (`compressChunkAsync`: off this thread where the
   * codec can be; a large import's new files are archived by its parse workers instead). Returns the end actually
   * archived (less than `to` when the file is shorter now). `into`: the key the chunks are stored under (a version
   * kept beside the file: `versionKey`).
   */
  async archiveRange(path: string, from: number, to: number, into = path): Promise<number> {
    if (to <= from) return from;
    const handle = await open(path, 'r');
    let position = from;
    try {
      while (position < to) {
        const length = Math.min(CHUNK_BYTES, to - position);
        const buffer = Buffer.allocUnsafe(length);
        const { bytesRead } = await handle.read(buffer, 0, length, position);
        if (bytesRead === 0) break;
        const packed = await compressChunkAsync(buffer.subarray(0, bytesRead));
        this.s.insert.run(into, position, bytesRead, packed.codec, packed.data);
        position += bytesRead;
      }
    } finally {
      await handle.close();
      this.s.setBytes.run({ path: into });
    }
    return position;
  }

  /**
   * Store chunks compressed elsewhere (by a parse worker, `compressChunk` over the same `CHUNK_BYTES` ranges as
   * `archiveRange`), then note where the path's archive ends.
   */
  storeChunks(
    path: string,
    chunks: readonly { offset: number; length: number; codec: Codec; data: Uint8Array }[],
  ): number {
    for (const chunk of chunks) this.s.insert.run(path, chunk.offset, chunk.length, chunk.codec, chunk.data);
    this.s.setBytes.run({ path });
    return this.end(path);
  }

  /** Cut the archive of a path at `end` (an unfinished last line was held back, or archived past it). */
  truncate(path: string, end: number): void {
    const chunks = this.s.chunks.all(path) as ChunkRow[];
    const last = chunks.find((c) => c.offset < end && end < c.offset + c.length);
    this.s.deleteFrom.run(path, end);
    if (last !== undefined) {
      const data = this.s.data.get(last.id) as Buffer;
      const bytes = decompressChunk(last.codec, data, path).subarray(0, end - last.offset);
      const packed = compressChunk(bytes);
      this.s.insert.run(path, last.offset, bytes.length, packed.codec, packed.data);
    }
    this.s.setBytes.run({ path });
  }

  /** Archive a small file whole (a subagent's `.meta.json`) unless it is archived already. */
  async archiveSmallFile(path: string): Promise<void> {
    if (this.end(path) > 0 || !existsSync(path)) return;
    await this.archiveRange(path, 0, statSync(path).size);
  }
}
