/**
 * What the full tier learnt of each transcript file (its redacted size and chunk names) by its size and mtime, so a
 * push reads only files that changed: without it every push would re-read and re-redact every transcript to know
 * its digest. A cache only: lost or stale, the next push reads the files again and the server's digests decide.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FileChunks } from './chunks.js';

/** A file's size and modification time, which say whether it changed since. */
interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
}

interface Entry extends FileChunks, FileStamp {}

const FORMAT = 1;

export class FileCache {
  private readonly entries = new Map<string, Entry>();
  private changed = false;

  private constructor(private readonly path: string | undefined) {}

  /** The cache kept at `path` (nothing kept when undefined); an unreadable file starts empty. */
  static load(path: string | undefined): FileCache {
    const cache = new FileCache(path);
    if (path === undefined) return cache;
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as { format?: number; files?: Record<string, Entry> };
      if (parsed.format === FORMAT && parsed.files) {
        for (const [file, entry] of Object.entries(parsed.files)) cache.entries.set(file, entry);
      }
    } catch {
      // no cache yet, or one this version cannot read: start again
    }
    return cache;
  }

  /**
   * The file's chunks if it is unchanged since they were made. A file gone from disk keeps its chunks while the
   * index holds it at the size they were made of (`indexedSize`, its archived bytes): one appended to, read by the
   * index and then deleted before the next push is made again from the archive.
   */
  get(file: string, indexedSize?: () => number | undefined): FileChunks | undefined {
    const entry = this.entries.get(file);
    if (!entry) return undefined;
    const stat = statOf(file);
    if (stat && (stat.size !== entry.size || stat.mtimeMs !== entry.mtimeMs)) return undefined;
    const size = stat ? undefined : indexedSize?.();
    if (size !== undefined && size !== entry.size) return undefined;
    return entry;
  }

  /**
   * The file's size and modification time now, or for a file gone from disk its size in the index (what its chunks
   * are then made of, from the archive); take it before reading the file.
   */
  stamp(file: string, indexedSize?: () => number | undefined): FileStamp | undefined {
    const stat = statOf(file);
    if (stat) return stat;
    const size = indexedSize?.();
    return size === undefined ? undefined : { size, mtimeMs: -1 };
  }

  /**
   * The file's chunks, kept under `stamp`, its size and time before it was read (a file appended to while it was
   * read then differs from its entry, and is read again).
   */
  set(file: string, chunks: FileChunks, stamp: FileStamp | undefined): void {
    this.entries.set(file, { ...chunks, size: stamp?.size ?? -1, mtimeMs: stamp?.mtimeMs ?? -1 });
    this.changed = true;
  }

  /** Writes the cache (to a temporary file renamed over it: another push may read it meanwhile). */
  save(): void {
    if (this.path === undefined || !this.changed) return;
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ format: FORMAT, files: Object.fromEntries(this.entries) }), { mode: 0o600 });
    renameSync(temp, this.path);
    this.changed = false;
  }
}

function statOf(file: string): FileStamp | undefined {
  try {
    const s = statSync(file);
    return { size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return undefined;
  }
}
