/**
 * A full-tier session's transcripts rebuilt from their stored chunks (gunzipped, in memory), as files core's
 * adapters read through `open`: the session loader (the timeline) and the search documents (docs.ts) both read them.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { AgentId, ByteSource, DiscoveredFile } from '@agentdash/core';
import type { Sql, TxSql } from './db.js';

const inflate = promisify(gunzip);

/** A pushed file: its name in the session, its role and chunks (the `files` table's row, or the payload's). */
export interface PushedFile {
  readonly name: string;
  readonly role: 'main' | 'subagent';
  readonly agentId: string | null | undefined;
  readonly chunks: readonly string[];
}

export interface Transcripts {
  readonly files: readonly DiscoveredFile[];
  /** A file's bytes through core's `open`. */
  open(path: string): Promise<ByteSource>;
  /** The bytes of every file. */
  readonly size: number;
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

/** The files of session `uid`, rebuilt from the chunks stored under their SHA-256. */
export async function loadTranscripts(
  sql: Sql | TxSql,
  session: { readonly uid: string; readonly agent: AgentId; readonly sessionId: string; readonly projectDir: string },
  pushed: readonly PushedFile[],
): Promise<Transcripts> {
  const texts = new Map<string, Buffer>();
  const files: DiscoveredFile[] = [];
  // every file's chunks in one query
  const names = [...new Set(pushed.flatMap((f) => f.chunks))];
  const rows =
    names.length === 0
      ? []
      : await sql<{ sha256: string; bytes: Buffer }[]>`
      select sha256, bytes from chunks where sha256 = any(${names}::text[])`;
  const bySha = new Map(rows.map((r) => [r.sha256, r.bytes]));
  for (const f of pushed) {
    const parts = await Promise.all(f.chunks.map(async (sha) => await inflate(bySha.get(sha) ?? Buffer.alloc(0))));
    // a path no disk holds: the adapters read it through `open` only
    const path = `/agentdash-team/${session.uid}/${f.name}`;
    const text = Buffer.concat(parts);
    texts.set(path, text);
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
    size: [...texts.values()].reduce((n, t) => n + t.length, 0),
    open: async (path) => {
      const text = texts.get(path);
      if (!text) throw Object.assign(new Error(`ENOENT: not pushed: ${path}`), { code: 'ENOENT' });
      return bufferSource(text);
    },
  };
}
