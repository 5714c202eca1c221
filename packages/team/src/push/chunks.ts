/**
 * The full tier's transcripts: each file's lines with their secrets redacted, cut at line ends into chunks of about
 * `CHUNK_TEXT_BYTES`, gzip-compressed and named by the SHA-256 of the compressed bytes (content-addressed, so a chunk
 * is stored once however often it is pushed, and a push killed mid-file resumes where the server stopped).
 */
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { OpenBytes } from '@agentdash/core';
import { RawLines } from '@agentdash/core/secrets';
import { CHUNK_TEXT_BYTES, MAX_CHUNK_BYTES, MAX_CHUNK_TEXT_BYTES } from '../contract.js';

export interface Chunk {
  readonly sha256: string;
  /** The gzip bytes, as sent. */
  readonly gz: Buffer;
}

export interface FileChunks {
  /** Bytes of the redacted text. */
  readonly bytes: number;
  readonly chunks: readonly string[];
}

/** A file the full tier cannot carry: a line longer than a chunk may be (its gzip past `MAX_CHUNK_BYTES`, say). */
export class ChunkTooLargeError extends Error {
  constructor(path: string, what: string) {
    super(`${path}: a line ${what}, more than a transcript chunk may hold`);
  }
}

const READ_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * A transcript line without its secrets, as `agentdash secrets` and the index find them (core's `redactLine`: a JSON
 * Lines record parsed, a JSON document's line with its strings decoded, else text). `fileChunks` reads a file's lines
 * in order with core's `RawLines`, which also redacts a private key written over lines of its own.
 */
export { redactLine } from '@agentdash/core/secrets';

export function chunkOf(text: string | Buffer): Chunk {
  const gz = gzipSync(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, { level: 6 });
  return { sha256: createHash('sha256').update(gz).digest('hex'), gz };
}

/**
 * Reads `path` (through `open`: the file, else the index's archive of it) and hands each chunk to `onChunk` as it is
 * made; memory holds one read block and one chunk. An unfinished last line is kept as it is (a live file).
 * A chunk is cut once its text reaches `CHUNK_TEXT_BYTES` UTF-16 units (so its cuts, and so its names, stay those of
 * every earlier push); a line without secrets that is valid UTF-8 goes in as the bytes read, not decoded and encoded.
 */
export async function fileChunks(
  open: OpenBytes,
  path: string,
  onChunk: (chunk: Chunk) => Promise<void> | void,
): Promise<FileChunks> {
  const source = await open(path);
  const names: string[] = [];
  let bytes = 0;
  let pending: Buffer[] = [];
  let parts: Buffer[] = [];
  let partBytes = 0;
  let textLength = 0;
  const lines = new RawLines();
  const flush = async (): Promise<void> => {
    if (textLength === 0) return;
    if (partBytes > MAX_CHUNK_TEXT_BYTES) throw new ChunkTooLargeError(path, `of ${partBytes} bytes`);
    const chunk = chunkOf(Buffer.concat(parts, partBytes));
    if (chunk.gz.length > MAX_CHUNK_BYTES) {
      throw new ChunkTooLargeError(path, `of ${partBytes} bytes compresses to ${chunk.gz.length}`);
    }
    bytes += partBytes;
    names.push(chunk.sha256);
    parts = [];
    partBytes = 0;
    textLength = 0;
    await onChunk(chunk);
  };
  const addLine = async (raw: Buffer): Promise<void> => {
    const line = raw.toString('utf8');
    const end = line.endsWith('\r\n') ? 2 : line.endsWith('\n') ? 1 : 0;
    const body = line.slice(0, line.length - end);
    const redacted = lines.redact(body);
    const text = redacted === body && isUtf8(raw) ? raw : Buffer.from(redacted + line.slice(line.length - end), 'utf8');
    parts.push(text);
    partBytes += text.length;
    textLength += redacted.length + end;
    if (textLength >= CHUNK_TEXT_BYTES) await flush();
  };
  try {
    const block = Buffer.allocUnsafe(READ_BYTES);
    let position = 0;
    for (;;) {
      const { bytesRead } = await source.read(block, 0, READ_BYTES, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      // only the bytes read are searched: the rest of the block is a small file's untouched memory (each search
      // past them reads, and faults in, the whole block) or an earlier read's stale lines
      const read = block.subarray(0, bytesRead);
      let start = 0;
      for (let at = read.indexOf(NEWLINE, 0); at !== -1; at = read.indexOf(NEWLINE, start)) {
        // one copy of the line (the block is read into again)
        const line = Buffer.from(read.subarray(start, at + 1));
        await addLine(pending.length === 0 ? line : Buffer.concat([...pending, line]));
        pending = [];
        start = at + 1;
      }
      if (start < bytesRead) pending.push(Buffer.from(read.subarray(start, bytesRead)));
    }
    if (pending.length > 0) await addLine(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending));
    await flush();
  } finally {
    await source.close();
  }
  return { bytes, chunks: names };
}
