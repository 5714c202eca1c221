/**
 * What the tests may rely on in an archive chunk's zstd frame, read from its bytes (RFC 8878, section 3.1.1): one
 * standard frame spanning the whole chunk, and the content size in its header when the encoder wrote one. Not the
 * frame's exact bytes: they differ between encoders and between one encoder's calls (Node 22 and 24's asynchronous
 * zstd, given no pledged size, writes no content size and so a window descriptor instead), while the bytes they hold
 * are the same.
 */
import { createHash } from 'node:crypto';
import { CODEC, decompressChunk } from '../src/archive/archive-codec.js';

export interface FrameHeader {
  /** The content size the header declares; undefined when the encoder did not know it. */
  readonly contentSize: number | undefined;
  readonly checksum: boolean;
}

const MAGIC = 0xfd2fb528;

/** The header of the one zstd frame `frame` must be, after checking that its blocks end exactly where it does. */
export function zstdFrame(frame: Uint8Array): FrameHeader {
  const bytes = Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
  if (bytes.length < 6 || bytes.readUInt32LE(0) !== MAGIC) throw new Error('not a zstd frame (magic number)');
  const descriptor = bytes[4] as number;
  const fcsFlag = descriptor >> 6;
  const single = (descriptor & 0x20) !== 0;
  const checksum = (descriptor & 0x04) !== 0;
  if ((descriptor & 0x08) !== 0) throw new Error('reserved bit set in the frame header');
  let at = 5 + (single ? 0 : 1) + ([0, 1, 2, 4][descriptor & 0x03] as number);
  const fcsBytes = [single ? 1 : 0, 2, 4, 8][fcsFlag] as number;
  let contentSize: number | undefined;
  if (fcsBytes > 0) {
    const field = bytes.subarray(at, at + fcsBytes);
    contentSize = Number(readLE(field)) + (fcsBytes === 2 ? 256 : 0);
  }
  at += fcsBytes;
  for (let last = false; !last; ) {
    if (at + 3 > bytes.length) throw new Error('the frame ends inside a block header');
    const header = bytes.readUIntLE(at, 3);
    last = (header & 1) === 1;
    const type = (header >> 1) & 3;
    if (type === 3) throw new Error('reserved block type');
    at += 3 + (type === 1 ? 1 : header >>> 3);
  }
  at += checksum ? 4 : 0;
  if (at !== bytes.length) throw new Error(`the frame ends at byte ${at} of ${bytes.length}`);
  return { contentSize, checksum };
}

function readLE(field: Buffer): bigint {
  let value = 0n;
  for (let i = field.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(field[i] as number);
  return value;
}

/**
 * An archive chunk row as what it holds: its place, its codec and the SHA-256 of its decompressed bytes, after
 * checking that those are `length` bytes and, for zstd, that the chunk is one frame whose declared size (if any) is
 * `length`.
 */
export function chunkContent(path: string, offset: number, length: number, codec: number, data: Uint8Array): unknown[] {
  const bytes = decompressChunk(codec, data, path);
  if (bytes.length !== length) throw new Error(`${path}@${offset}: ${bytes.length} bytes, the row says ${length}`);
  if (codec === CODEC.zstd) {
    const { contentSize } = zstdFrame(data);
    if (contentSize !== undefined && contentSize !== length) {
      throw new Error(`${path}@${offset}: the frame declares ${contentSize} bytes, the row says ${length}`);
    }
  }
  return [path, offset, length, codec, createHash('sha256').update(bytes).digest('hex')];
}
