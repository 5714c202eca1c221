/**
 * Transcript chunks the team server received lately (their gzip bytes by SHA-256, at most `RECENT_CHUNK_BYTES`, the
 * oldest out first). A push uploads a session's chunks just before the session, whose search words are then cut
 * from them: kept here, they are not read back from PostgreSQL (a query, the bytes sent back as hex text and decoded)
 * moments after they were written. A chunk's bytes never change under its name, so a kept one is always right.
 */

/** Bytes of chunks kept (a push's batch of sessions is at most a few dozen MB of transcript, gzip-compressed). */
export const RECENT_CHUNK_BYTES = 32 * 2 ** 20;

const recent = new Map<string, Buffer>();
let kept = 0;

/** Keeps a chunk just received (its bytes checked against its name by the caller). */
export function rememberChunk(sha256: string, bytes: Uint8Array): void {
  if (recent.has(sha256) || bytes.byteLength > RECENT_CHUNK_BYTES / 8) return;
  // a copy: a chunk of a request's body would otherwise keep the whole body in memory
  recent.set(sha256, Buffer.from(bytes));
  kept += bytes.byteLength;
  for (const [name, old] of recent) {
    if (kept <= RECENT_CHUNK_BYTES) break;
    recent.delete(name);
    kept -= old.byteLength;
  }
}

/** A chunk received lately, else undefined. */
export const recentChunk = (sha256: string): Buffer | undefined => recent.get(sha256);

/** Chunks deleted from PostgreSQL: not kept here either. */
export function forgetChunks(names: readonly string[]): void {
  for (const name of names) {
    const old = recent.get(name);
    if (!old) continue;
    recent.delete(name);
    kept -= old.byteLength;
  }
}
