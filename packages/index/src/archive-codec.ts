/**
 * How the archive's chunks are compressed. Each chunk row names its codec (`archive_chunks.codec`), so chunks written
 * by any version stay readable, and one path may hold chunks of both:
 * - 0, brotli (quality 5): every chunk of schema 6–24; still written where zstd cannot be loaded;
 * - 1, zstd (level 6): written from schema 25 on. About 2.5× faster than brotli 5 on transcripts, 2× faster to read,
 *   for a slightly larger archive (14.6 % against 14.1 % of `../shared/wild`; issue 8, docs/benchmarks.md).
 *
 * zstd comes from `node:zlib` where Node has it (22.15 and later), else from the `zstd-napi` addon (compiled at
 * install, like better-sqlite3). Both write standard zstd frames, so either reads what the other wrote.
 */
import { createRequire } from 'node:module';
import * as zlib from 'node:zlib';
import { AgentDashError } from '@agentdash/core';

export const CODEC = { brotli: 0, zstd: 1 } as const;
export type Codec = (typeof CODEC)[keyof typeof CODEC];

const BROTLI = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
};

const ZSTD_LEVEL = 6;

interface Zstd {
  compress(bytes: Uint8Array): Buffer;
  decompress(bytes: Uint8Array): Buffer;
}

/** Node's own zstd (22.15+), typed here because @types/node 20 does not know it. */
interface NodeZstd {
  zstdCompressSync(bytes: Uint8Array, options: { params: Record<number, number> }): Buffer;
  zstdDecompressSync(bytes: Uint8Array): Buffer;
  constants: { ZSTD_c_compressionLevel: number };
}

/** zstd-napi's classes, as much of them as used here. */
interface ZstdNapi {
  Compressor: new () => { setParameters(p: { compressionLevel: number }): void; compress(b: Uint8Array): Buffer };
  Decompressor: new () => { decompress(b: Uint8Array): Buffer };
}

function loadZstd(): Zstd | undefined {
  const node = zlib as unknown as Partial<NodeZstd>;
  if (typeof node.zstdCompressSync === 'function' && typeof node.zstdDecompressSync === 'function' && node.constants) {
    const params = { [node.constants.ZSTD_c_compressionLevel]: ZSTD_LEVEL };
    const compress = node.zstdCompressSync;
    const decompress = node.zstdDecompressSync;
    return { compress: (bytes) => compress(bytes, { params }), decompress: (bytes) => decompress(bytes) };
  }
  try {
    const addon = createRequire(import.meta.url)('zstd-napi') as ZstdNapi;
    const compressor = new addon.Compressor();
    compressor.setParameters({ compressionLevel: ZSTD_LEVEL });
    const decompressor = new addon.Decompressor();
    return { compress: (bytes) => compressor.compress(bytes), decompress: (bytes) => decompressor.decompress(bytes) };
  } catch {
    // Not built on this machine (no compiler at install): chunks are written with brotli, which Node always has.
    return undefined;
  }
}

let zstdLoaded: Zstd | null | undefined;
function zstd(): Zstd | undefined {
  if (zstdLoaded === undefined) zstdLoaded = loadZstd() ?? null;
  return zstdLoaded ?? undefined;
}

/** The codec new chunks are written with on this machine. */
export function preferredCodec(): Codec {
  return zstd() !== undefined ? CODEC.zstd : CODEC.brotli;
}

/** A chunk compressed with `codec` (default: the preferred one). */
export function compressChunk(bytes: Uint8Array, codec: Codec = preferredCodec()): { codec: Codec; data: Buffer } {
  const z = codec === CODEC.zstd ? zstd() : undefined;
  if (z !== undefined) return { codec, data: z.compress(bytes) };
  return { codec: CODEC.brotli, data: zlib.brotliCompressSync(bytes, BROTLI) };
}

/** The bytes of a chunk stored with `codec`. */
export function decompressChunk(codec: number, data: Uint8Array): Buffer {
  switch (codec) {
    case CODEC.brotli:
      return zlib.brotliDecompressSync(data);
    case CODEC.zstd: {
      const z = zstd();
      if (z === undefined) throw new ArchiveCodecError(codec, 'zstd could not be loaded on this machine');
      return z.decompress(data);
    }
    default:
      throw new ArchiveCodecError(codec, 'unknown codec');
  }
}

/** An archived chunk this program cannot decompress (an unreadable file, as far as its readers go). */
export class ArchiveCodecError extends AgentDashError {
  readonly codec: number;
  constructor(codec: number, reason: string) {
    super('UNREADABLE_FILE', `an archived chunk (codec ${codec}) cannot be read: ${reason}`);
    this.codec = codec;
  }
}
