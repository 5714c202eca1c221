/**
 * A full-tier session's transcripts rebuilt from their stored chunks (gunzipped, in memory), as files core's
 * adapters read through `open`: the session loader (the timeline) and the search documents (docs.ts) both read them.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { AgentId, ByteSource, DiscoveredFile } from '@agentdash/core';
import { MAX_CHUNK_TEXT_BYTES, MAX_SESSION_TEXT_BYTES } from '../contract.js';
import type { Sql, TxSql } from './db.js';
import { recentChunk } from './recent-chunks.js';

/**
 * Where a pushed file of session `uid` is read at on the team server (a path no disk holds: the adapters read it
 * through `open` only), and so the key of a subagent thread read from a file without an agent id.
 */
export const pushedFilePath = (uid: string, name: string): string => `/agentdash-team/${uid}/${name}`;

const gunzipped = promisify(gunzip);

/** Chunks fetched from PostgreSQL and chunks gunzipped since the server started (tests count them). */
export const chunkReads = { fetched: 0, chunks: 0 };

/**
 * A session's transcripts that would hold more than the contract lets them (a chunk, or the session), or other than
 * the bytes its payload declares.
 */
export class TranscriptSizeError extends Error {
  readonly code = 'TEAM_TRANSCRIPT_SIZE';
}

/**
 * A session's chunks not stored when its transcripts were read (dropped meanwhile: another session that named them
 * was refused, replaced or forgotten): read as no bytes, they would be a hole, or an error gunzipping nothing.
 */
export class ChunksGoneError extends Error {
  constructor(readonly missing: readonly string[]) {
    super(`${missing.length} transcript chunk${missing.length === 1 ? ' is' : 's are'} not stored`);
  }
}

/** A chunk's text if it holds at most `max` bytes, else undefined: a gzip bomb stops there, not at the memory's end. */
async function inflateAtMost(bytes: Buffer, max: number): Promise<Buffer | undefined> {
  chunkReads.chunks += 1;
  try {
    return await gunzipped(bytes, { maxOutputLength: Math.max(1, max) });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') return undefined;
    throw error;
  }
}

/** A chunk's text; a chunk past the contract's most throws. */
async function inflate(bytes: Buffer): Promise<Buffer> {
  const text = await inflateAtMost(bytes, MAX_CHUNK_TEXT_BYTES);
  if (text === undefined) {
    throw new TranscriptSizeError(`a transcript chunk holds more than ${MAX_CHUNK_TEXT_BYTES} bytes`);
  }
  return text;
}

/** A pushed file: its name in the session, its role and chunks (the `files` table's row, or the payload's). */
export interface PushedFile {
  readonly name: string;
  readonly role: 'main' | 'subagent';
  readonly agentId: string | null | undefined;
  readonly chunks: readonly string[];
  /** The bytes its chunks hold, as the laptop declared them (the payload's; checked when given). */
  readonly bytes?: number;
}

export interface Transcripts {
  readonly files: readonly DiscoveredFile[];
  /** A file's bytes through core's `open`. */
  open(path: string): Promise<ByteSource>;
  /** The bytes of every file. */
  readonly size: number;
  /** Where each of a file's chunks starts in its text, by path (read whole: not `lazy`). */
  readonly chunkStarts?: ReadonlyMap<string, readonly number[]>;
}

/** Bytes in memory as a `ByteSource`. */
export function bufferSource(bytes: Buffer): ByteSource {
  return {
    async read(buffer, offset, length, position) {
      const n = Math.max(0, Math.min(length, bytes.length - position));
      bytes.copy(buffer, offset, position, position + n);
      return { bytesRead: n };
    },
    async close() {},
  };
}

/**
 * Chunks as one `ByteSource`, each fetched (`chunk(i)`) and gunzipped when a read first reaches it: a reader that stops
 * early (a search that wants a session's first hit) neither fetches nor gunzips the rest.
 */
export function chunkedSource(count: number, chunk: (i: number) => Promise<Buffer>): ByteSource {
  const texts: Buffer[] = [];
  let end = 0;
  const reach = async (position: number) => {
    while (end <= position && texts.length < count) {
      // every chunk read stays in memory: at most a session's worth of them
      if (end > MAX_SESSION_TEXT_BYTES) {
        throw new TranscriptSizeError(`a transcript holds more than ${MAX_SESSION_TEXT_BYTES} bytes`);
      }
      const text = await inflate(await chunk(texts.length));
      texts.push(text);
      end += text.length;
    }
  };
  return {
    async read(buffer, offset, length, position) {
      await reach(position + length - 1);
      let n = 0;
      let start = 0;
      for (const text of texts) {
        const at = position + n - start;
        if (at >= 0 && at < text.length && n < length) {
          n += text.copy(buffer, offset + n, at, Math.min(text.length, at + length - n));
        }
        start += text.length;
      }
      return { bytesRead: n };
    },
    async close() {},
  };
}

/**
 * The files of session `uid`, rebuilt from the chunks stored under their SHA-256 (with `lazy`, each chunk fetched and
 * gunzipped when first read, and the files' sizes left 0: for readers that read to the end, as core's adapters do).
 * Without `lazy`, a chunk not stored throws `ChunksGoneError`.
 */
export async function loadTranscripts(
  sql: Sql | TxSql,
  session: { readonly uid: string; readonly agent: AgentId; readonly sessionId: string; readonly projectDir: string },
  pushed: readonly PushedFile[],
  lazy = false,
): Promise<Transcripts> {
  if (lazy) return await lazyTranscripts(sql, session, pushed);
  const texts = new Map<string, Buffer>();
  const chunkStarts = new Map<string, number[]>();
  const files: DiscoveredFile[] = [];
  // every file's chunks in one query, but those just received (a push's session after its chunks)
  const bySha = new Map<string, Buffer>();
  const names: string[] = [];
  for (const name of new Set(pushed.flatMap((f) => f.chunks))) {
    const held = recentChunk(name);
    if (held) bySha.set(name, held);
    else names.push(name);
  }
  const rows =
    names.length === 0
      ? []
      : await sql<{ sha256: string; bytes: Buffer }[]>`
      select sha256, bytes from chunks where sha256 = any(${names}::text[])`;
  chunkReads.fetched += rows.length;
  for (const r of rows) bySha.set(r.sha256, r.bytes);
  const gone = names.filter((name) => !bySha.has(name));
  if (gone.length > 0) throw new ChunksGoneError(gone);
  // The whole session in memory, so at most MAX_SESSION_TEXT_BYTES of it, and of a file no more than it declares: a
  // file naming one chunk a million times stops there. Chunk by chunk, each inflated at most to what is left.
  let left = MAX_SESSION_TEXT_BYTES;
  for (const f of pushed) {
    const parts: Buffer[] = [];
    let fileLeft = f.bytes ?? Number.POSITIVE_INFINITY;
    for (const sha of f.chunks) {
      const part = await inflateAtMost(
        bySha.get(sha) ?? Buffer.alloc(0),
        Math.min(MAX_CHUNK_TEXT_BYTES, left, fileLeft),
      );
      if (part === undefined) {
        const why =
          fileLeft <= Math.min(MAX_CHUNK_TEXT_BYTES, left)
            ? `${f.name}: its chunks hold more than the ${f.bytes} bytes it declares`
            : left < MAX_CHUNK_TEXT_BYTES
              ? `the session's transcripts hold more than ${MAX_SESSION_TEXT_BYTES} bytes`
              : `${f.name}: a chunk holds more than ${MAX_CHUNK_TEXT_BYTES} bytes`;
        throw new TranscriptSizeError(why);
      }
      left -= part.length;
      fileLeft -= part.length;
      parts.push(part);
    }
    const path = pushedFilePath(session.uid, f.name);
    // most files are one chunk: not copied again
    const text = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    if (f.bytes !== undefined && f.bytes !== text.length) {
      throw new TranscriptSizeError(`${f.name}: its chunks hold ${text.length} bytes, not the ${f.bytes} it declares`);
    }
    texts.set(path, text);
    const starts: number[] = [];
    let start = 0;
    for (const part of parts) {
      starts.push(start);
      start += part.length;
    }
    chunkStarts.set(path, starts);
    files.push({
      path,
      agent: session.agent,
      projectDir: session.projectDir,
      role: f.role,
      sessionId: session.sessionId,
      agentId: f.agentId ?? undefined,
      metaPath: undefined,
      size: text.length,
      mtimeMs: 0,
      ino: 0,
    });
  }
  return {
    files,
    chunkStarts,
    size: [...texts.values()].reduce((n, t) => n + t.length, 0),
    open: async (path) => {
      const text = texts.get(path);
      if (!text) throw Object.assign(new Error(`ENOENT: not pushed: ${path}`), { code: 'ENOENT' });
      return bufferSource(text);
    },
  };
}

async function lazyTranscripts(
  sql: Sql | TxSql,
  session: { readonly uid: string; readonly agent: AgentId; readonly sessionId: string; readonly projectDir: string },
  pushed: readonly PushedFile[],
): Promise<Transcripts> {
  const chunksOf = new Map<string, readonly string[]>();
  const files = pushed.map((f): DiscoveredFile => {
    const path = pushedFilePath(session.uid, f.name);
    chunksOf.set(path, f.chunks);
    const { agent, projectDir, sessionId } = session;
    const agentId = f.agentId ?? undefined;
    return {
      path,
      agent,
      projectDir,
      role: f.role,
      sessionId,
      agentId,
      metaPath: undefined,
      size: 0,
      mtimeMs: 0,
      ino: 0,
    };
  });
  return {
    files,
    size: 0,
    open: async (path) => {
      const chunks = chunksOf.get(path);
      if (!chunks) throw Object.assign(new Error(`ENOENT: not pushed: ${path}`), { code: 'ENOENT' });
      return chunkedSource(chunks.length, async (i) => {
        const [row] = await sql<{ bytes: Buffer }[]>`select bytes from chunks where sha256 = ${chunks[i] ?? ''}`;
        chunkReads.fetched += row ? 1 : 0;
        return row?.bytes ?? Buffer.alloc(0);
      });
    },
  };
}

/** One stored chunk's text (gunzipped), fetched from PostgreSQL as a lazy read fetches it. */
export async function chunkText(sql: Sql | TxSql, sha256: string): Promise<Buffer> {
  const [row] = await sql<{ bytes: Buffer }[]>`select bytes from chunks where sha256 = ${sha256}`;
  chunkReads.fetched += row ? 1 : 0;
  return await inflate(row?.bytes ?? Buffer.alloc(0));
}
