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
    return createHash('sha1')
      .update(head.subarray(0, a.bytesRead))
      .update(':')
      .update(tail.subarray(0, b.bytesRead))
      .digest('base64url');
  } finally {
    await handle.close();
  }
}
