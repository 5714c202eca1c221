/** The transcript chunks a push uploads: stored once each, whoever sends them (gzip of the redacted text). */
import { createHash } from 'node:crypto';
import type { NamedBytes } from '../chunk-batch.js';
import type { Sql, TxSql } from './db.js';
import { rememberChunk } from './recent-chunks.js';

/** Stores a chunk once; false when it was stored already. The caller checked its hash. */
export async function storeChunk(sql: Sql, sha256: string, bytes: Uint8Array, personId: number): Promise<boolean> {
  // the session that names it comes next, and its search words are cut from it
  rememberChunk(sha256, bytes);
  const rows = await sql`insert into chunks (sha256, bytes, uploaded_by) values (${sha256}, ${bytes}, ${personId})
    on conflict do nothing returning 1`;
  return rows.length === 1;
}

/**
 * Stores chunks (their hashes checked by the caller) in one statement; returns how many were new. In name order, so
 * two pushes storing the same new chunks at once never wait for each other in a cycle.
 */
export async function storeChunks(sql: Sql, chunks: readonly NamedBytes[], personId: number): Promise<number> {
  const byName = new Map<string, Buffer>();
  for (const c of chunks) {
    rememberChunk(c.sha256, c.bytes);
    byName.set(c.sha256, Buffer.from(c.bytes.buffer, c.bytes.byteOffset, c.bytes.byteLength));
  }
  if (byName.size === 0) return 0;
  const rows = [...byName]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([sha256, bytes]) => ({ sha256, bytes, uploaded_by: personId }));
  return (await sql`insert into chunks ${sql(rows)} on conflict do nothing returning 1`).length;
}

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The chunks of `hashes` not stored. */
export async function missingChunks(sql: Sql | TxSql, hashes: readonly string[]): Promise<string[]> {
  if (hashes.length === 0) return [];
  const unique = [...new Set(hashes)];
  const found = new Set(
    (await sql<{ sha256: string }[]>`select sha256 from chunks where sha256 = any(${unique}::text[])`).map(
      (r) => r.sha256,
    ),
  );
  return unique.filter((h) => !found.has(h));
}
