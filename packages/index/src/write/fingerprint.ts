/** A file's fingerprint: notices a transcript rewritten in place (its bytes before the parsed offset changed). */
import { createHash } from 'node:crypto';
import { type OpenBytes, openFileBytes } from '@agentdash/core';

/** Bytes kept from the start of a file and from just before its parsed offset, to notice a rewrite in place. */
const FINGERPRINT_BYTES = 64;

/**
 * A hash of the first (up to) 64 bytes and of the 64 bytes before `offset` (compared, never read back: 27 characters
 * instead of their 257 in hex); '' at offset 0 or when the file cannot be read.
 */
export async function fingerprintOf(
  path: string,
  offset: number,
  openBytes: OpenBytes = openFileBytes,
): Promise<string> {
  if (offset <= 0) return '';
  const length = Math.min(FINGERPRINT_BYTES, offset);
  const handle = await openBytes(path).catch(() => undefined);
  if (handle === undefined) return '';
  try {
    const head = Buffer.alloc(length);
    const tail = Buffer.alloc(length);
    const a = await handle.read(head, 0, length, 0);
    const b = await handle.read(tail, 0, length, offset - length);
    return fingerprintOfBytes(head.subarray(0, a.bytesRead), tail.subarray(0, b.bytesRead));
  } finally {
    await handle.close();
  }
}

/** The fingerprint of a file's first bytes and the bytes before its offset (`fingerprintOf`'s hash). */
function fingerprintOfBytes(head: Uint8Array, tail: Uint8Array): string {
  return createHash('sha1').update(head).update(':').update(tail).digest('base64url');
}

/**
 * The fingerprint of a file read once from byte 0, from the bytes its reader read (a parse worker): the first bytes,
 * and the last ones read. Saves opening the file again to read them back. `take` sees every read in order; a read
 * that does not continue the last one (the file opened again, or a skip) spoils it.
 */
export class FingerprintTee {
  private readonly head = Buffer.allocUnsafe(FINGERPRINT_BYTES);
  private headBytes = 0;
  /** The last bytes read, up to `FINGERPRINT_BYTES`, ending at `next`. */
  private readonly last = Buffer.allocUnsafe(FINGERPRINT_BYTES);
  private lastBytes = 0;
  /** Where the next read must start to continue; -1 once spoiled. */
  private next = 0;

  /** Bytes read at `position`. */
  take(bytes: Uint8Array, position: number): void {
    if (this.next < 0 || bytes.length === 0) return;
    if (position !== this.next) {
      this.next = -1;
      return;
    }
    if (this.headBytes < FINGERPRINT_BYTES) {
      const n = Math.min(FINGERPRINT_BYTES - this.headBytes, bytes.length);
      this.head.set(bytes.subarray(0, n), this.headBytes);
      this.headBytes += n;
    }
    if (bytes.length >= FINGERPRINT_BYTES) {
      this.last.set(bytes.subarray(bytes.length - FINGERPRINT_BYTES));
      this.lastBytes = FINGERPRINT_BYTES;
    } else {
      // Keep the newest: shift out what the short read pushes past the window.
      const keep = Math.min(this.lastBytes, FINGERPRINT_BYTES - bytes.length);
      this.last.copyWithin(0, this.lastBytes - keep, this.lastBytes);
      this.last.set(bytes, keep);
      this.lastBytes = keep + bytes.length;
    }
    this.next += bytes.length;
  }

  /**
   * `fingerprintOf(path, offset)` from the bytes read, when they hold it (the reads went on to `offset` exactly and
   * no further); else undefined.
   */
  fingerprint(offset: number): string | undefined {
    if (offset <= 0) return '';
    if (this.next !== offset) return undefined;
    const length = Math.min(FINGERPRINT_BYTES, offset);
    return fingerprintOfBytes(
      this.head.subarray(0, length),
      this.last.subarray(this.lastBytes - length, this.lastBytes),
    );
  }
}
