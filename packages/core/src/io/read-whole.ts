import { type ByteSource, modifiedMsOf, type OpenBytes } from './read-lines.js';

/**
 * A whole file's bytes, or only its size when it holds more than the limit; `modifiedMs`: when it was last written,
 * when its source says (`ByteSource.stat`).
 */
export type WholeFile =
  | { readonly overLimit: false; readonly bytes: Buffer; readonly size: number; readonly modifiedMs?: number }
  | { readonly overLimit: true; readonly size: number };

/**
 * Every byte of a file (for formats read whole: a JSON document, a small meta file), read in chunks of `chunkBytes`.
 * A file over `maxBytes` is not read to its end: its size is probed with one-byte reads instead.
 */
export async function readWhole(
  openBytes: OpenBytes,
  path: string,
  maxBytes: number,
  chunkBytes = 1024 * 1024,
): Promise<WholeFile> {
  const source = await openBytes(path);
  try {
    const parts: Buffer[] = [];
    for (let size = 0; ; ) {
      const buffer = Buffer.alloc(chunkBytes);
      const { bytesRead } = await source.read(buffer, 0, buffer.length, size);
      if (bytesRead === 0) {
        const modifiedMs = await modifiedMsOf(source);
        const bytes = Buffer.concat(parts);
        return modifiedMs === undefined
          ? { overLimit: false, bytes, size }
          : { overLimit: false, bytes, size, modifiedMs };
      }
      size += bytesRead;
      if (size > maxBytes) return { overLimit: true, size: await sourceLength(source, size) };
      parts.push(buffer.subarray(0, bytesRead));
    }
  } finally {
    await source.close();
  }
}

/**
 * The number of bytes of a source known to hold at least `known`: the end is bracketed by doubling steps, then
 * halved, with one-byte reads (a few dozen for any size).
 */
async function sourceLength(source: ByteSource, known: number): Promise<number> {
  const probe = Buffer.alloc(1);
  const holds = async (length: number) => (await source.read(probe, 0, 1, length - 1)).bytesRead > 0;
  // The length is at least `low` and less than `high`.
  let low = known;
  let step = 1024 * 1024;
  let high = low + step;
  while (await holds(high)) {
    low = high;
    step *= 2;
    high = low + step;
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (await holds(middle)) low = middle;
    else high = middle;
  }
  return low;
}
