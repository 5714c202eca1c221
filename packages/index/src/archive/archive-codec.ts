/**
 * How the archive's chunks are compressed. Each chunk row names its codec (`archive_chunks.codec`), so chunks written
 * by any version stay readable, and one path may hold chunks of both:
 * - 0, brotli (quality 5): every chunk of schema 6–24; still written where zstd cannot be loaded;
 * - 1, zstd: written from schema 25 on: much faster to write and to read than brotli 5, for a slightly larger
 *   archive (the figures are in docs/index.md and the commit that chose it).
 *   Level 8 for chunks under `LARGE_CHUNK`, level 3 for larger ones (`zstdLevelFor`).
 *
 * zstd comes from the `zstd-napi` addon (an optional dependency, compiled at install like better-sqlite3), else from
 * `node:zlib` where Node has it (22.15 and later). The addon first: Node 26.12's own zstd aborted a test process
 * when a worker thread was freed (a compression context closed before its init, node_zlib.cc), and the addon is what
 * Node 20 always ran. Both write standard zstd frames, so either reads what the other wrote. Where neither loads, new chunks are brotli, and zstd chunks already stored cannot be read (an
 * `UNREADABLE_FILE` naming the path) until the addon is built.
 *
 * A frame need not declare its content size, and nothing here relies on it: the chunk row keeps its length, and both
 * decoders read frames without it (the addon's `Decompressor` falls back to streaming). Node's asynchronous zstd
 * writes none unless told the size (22 and 24 do not know it otherwise; 26 does): `pledgedSrcSize` tells it, so a
 * chunk's frame is the same whichever thread wrote it where Node knows the option (22.23, 24.22, 26 at least), and
 * frames declare their size for a decoder to allocate once. Where Node ignores the option, frames differ by their
 * header only; tests compare what frames hold, never their bytes across calls.
 */
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import type * as Zlib from 'node:zlib';
import { AgentDashError } from '@agentdash/core/base';

/**
 * `node:zlib`, loaded when first used: it is not in Node's startup snapshot, and loading it (with the streams it
 * builds on) is a noticeable part of a warm command that decompresses nothing.
 */
let zlibLoaded: typeof Zlib | undefined;
const zlib = (): typeof Zlib => (zlibLoaded ??= createRequire(import.meta.url)('node:zlib') as typeof Zlib);

export const CODEC = { brotli: 0, zstd: 1 } as const;
export type Codec = (typeof CODEC)[keyof typeof CODEC];

const brotliOptions = () => ({
  params: {
    [zlib().constants.BROTLI_PARAM_QUALITY]: 5,
    [zlib().constants.BROTLI_PARAM_MODE]: zlib().constants.BROTLI_MODE_TEXT,
  },
});

const LARGE_CHUNK = 1024 * 1024;

/**
 * zstd's level for a chunk of `length` bytes: 8 below `LARGE_CHUNK`, 3 from there. Most of a large archive's bytes
 * are in whole chunks of long sessions, which compress well at any level: level 3 writes them several times faster
 * than the higher levels (a large share of a cold index's CPU) for a slightly larger archive. Small files gain the most from the
 * higher level and cost little time at it (level 3 throughout put `../shared/wild`, mostly small and middling files,
 * over its size goal). The figures are in the commits that chose these levels.
 */
export function zstdLevelFor(length: number): number {
  return length < LARGE_CHUNK ? 8 : 3;
}

interface Zstd {
  /** `windowLog`: a smaller window than the level's (the memory a decompression into small pieces needs). */
  compress(bytes: Uint8Array, windowLog?: number): Buffer;
  /** Off this thread where the implementation can (Node's, on libuv's thread pool); else `compress`. */
  compressAsync(bytes: Uint8Array): Promise<Buffer>;
  decompress(bytes: Uint8Array): Buffer;
  /** Where the addon streams: `decompressPieces`'s pieces of zstd frames. */
  pieces?(bytes: Uint8Array, size: number, reuse: () => boolean): Generator<Uint8Array>;
}

/** Node's own zstd (22.15+), typed here because @types/node 20 does not know it. */
interface NodeZstdOptions {
  params: Record<number, number>;
  /** The exact input length, written into the frame (Node versions that do not know the option ignore it). */
  pledgedSrcSize: number;
}
interface NodeZstd {
  zstdCompressSync(bytes: Uint8Array, options: NodeZstdOptions): Buffer;
  zstdCompress(bytes: Uint8Array, options: NodeZstdOptions, done: (error: Error | null, out: Buffer) => void): void;
  zstdDecompressSync(bytes: Uint8Array): Buffer;
  constants: { ZSTD_c_compressionLevel: number; ZSTD_c_windowLog: number };
}

/**
 * zstd-napi's native binding (`zstd-napi/binding`), as much of it as used here. The binding alone, not the package's
 * entry: the entry also loads its stream classes (and `node:stream`), several times the binding's own cost, at every
 * start that reads an archive or a stored output, for nothing used here but a frame without a declared size
 * (`fullDecompressor`).
 */
interface ZstdBinding {
  CParameter: { compressionLevel: number; windowLog: number };
  CCtx: new () => {
    setParameter(param: number, value: number): void;
    compress2(dst: Uint8Array, src: Uint8Array): number;
  };
  DCtx: new () => {
    decompress(dst: Uint8Array, src: Uint8Array): number;
    /** Left to flush (0 at a frame's end), bytes written, bytes read. */
    decompressStream(dst: Uint8Array, src: Uint8Array): [number, number, number];
  };
  compressBound(length: number): number;
  getFrameContentSize(frame: Uint8Array): number | null;
  findFrameCompressedSize(frame: Uint8Array): number;
}

/** zstd-napi's entry's decompressor, which also reads frames that do not declare their size (streaming). */
interface ZstdNapi {
  Decompressor: new () => { decompress(b: Uint8Array): Buffer };
}

function loadZstd(): Zstd | undefined {
  try {
    const require = createRequire(import.meta.url);
    const binding = require('zstd-napi/binding') as ZstdBinding;
    // One context per level (each keeps its tables between chunks).
    const contexts = new Map<string, InstanceType<ZstdBinding['CCtx']>>();
    const compress = (bytes: Uint8Array, windowLog?: number) => {
      const level = zstdLevelFor(bytes.length);
      let cctx = contexts.get(`${level} ${windowLog}`);
      if (cctx === undefined) {
        cctx = new binding.CCtx();
        cctx.setParameter(binding.CParameter.compressionLevel, level);
        if (windowLog !== undefined) cctx.setParameter(binding.CParameter.windowLog, windowLog);
        contexts.set(`${level} ${windowLog}`, cctx);
      }
      const out = Buffer.allocUnsafe(binding.compressBound(bytes.length));
      const length = cctx.compress2(out, bytes);
      // A bound much larger than the frame would keep its slack in memory as long as the chunk: copied then.
      return length < 0.75 * out.length ? Buffer.from(out.subarray(0, length)) : out.subarray(0, length);
    };
    const dctx = new binding.DCtx();
    let full: InstanceType<ZstdNapi['Decompressor']> | undefined;
    const decompress = (bytes: Uint8Array) => {
      // No bytes, no frame: nothing, as the package's decompressor gives (the binding cannot read a header there).
      if (bytes.length === 0) return Buffer.alloc(0);
      // One frame that declares its size (every frame this module writes with the addon): decoded in one call.
      const size = binding.getFrameContentSize(bytes);
      if (size !== null && binding.findFrameCompressedSize(bytes) === bytes.length) {
        const out = Buffer.allocUnsafe(size);
        if (dctx.decompress(out, bytes) === size) return out;
      }
      // Another shape (Node's own zstd on 22 and 24 writes frames without their size): the package's decompressor.
      full ??= new (require('zstd-napi') as ZstdNapi).Decompressor();
      return full.decompress(bytes);
    };
    // One for every stream (its window is allocated once); dropped after a damaged frame.
    let streams: InstanceType<ZstdBinding['DCtx']> | undefined;
    const pieces = function* (bytes: Uint8Array, size: number, reuse: () => boolean) {
      const stream = streams ?? new binding.DCtx();
      streams = undefined;
      let out = Buffer.allocUnsafe(size);
      let src = bytes;
      for (;;) {
        const [left, written, read] = stream.decompressStream(out, src);
        src = src.subarray(read);
        if (written > 0) {
          yield out.subarray(0, written);
          if (!reuse()) out = Buffer.allocUnsafe(size);
        }
        if (left === 0 && src.length === 0) break;
        if (written === 0 && read === 0) throw new Error('zstd: truncated frame');
      }
      streams = stream;
    };
    return { compress, compressAsync: async (bytes) => compress(bytes), decompress, pieces };
  } catch {
    // Not built on this machine (no compiler at install), or built for another Node: Node's own, else brotli.
  }
  const node = zlib() as unknown as Partial<NodeZstd>;
  const { zstdCompressSync, zstdCompress, zstdDecompressSync, constants } = node;
  if (zstdCompressSync && zstdCompress && zstdDecompressSync && constants) {
    const options = (bytes: Uint8Array, windowLog?: number): NodeZstdOptions => ({
      params: {
        [constants.ZSTD_c_compressionLevel]: zstdLevelFor(bytes.length),
        ...(windowLog === undefined ? {} : { [constants.ZSTD_c_windowLog]: windowLog }),
      },
      pledgedSrcSize: bytes.length,
    });
    const compressAsync = promisify(zstdCompress);
    return {
      compress: (bytes, windowLog) => zstdCompressSync(bytes, options(bytes, windowLog)),
      compressAsync: (bytes) => compressAsync(bytes, options(bytes)),
      decompress: (bytes) => zstdDecompressSync(bytes),
    };
  }
  // Neither: chunks are written with brotli, which Node always has.
  return undefined;
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

/**
 * A chunk compressed with `codec` (default: the preferred one); `windowLog`: zstd's window (2 to that power bytes)
 * when smaller than its level's, for bytes read back with `decompressPieces` (its memory, touched afresh each run).
 */
export function compressChunk(
  bytes: Uint8Array,
  codec: Codec = preferredCodec(),
  windowLog?: number,
): { codec: Codec; data: Buffer } {
  const z = codec === CODEC.zstd ? zstd() : undefined;
  if (z !== undefined) return { codec, data: z.compress(bytes, windowLog) };
  return { codec: CODEC.brotli, data: zlib().brotliCompressSync(bytes, brotliOptions()) };
}

let brotliAsyncLoaded: ((bytes: Uint8Array, options: Zlib.BrotliOptions) => Promise<Buffer>) | undefined;
function brotliAsync(bytes: Uint8Array): Promise<Buffer> {
  brotliAsyncLoaded ??= promisify(zlib().brotliCompress);
  return brotliAsyncLoaded(bytes, brotliOptions());
}

/**
 * As `compressChunk`, for a thread that serves others (the writer, in `serve`): brotli on libuv's thread pool, zstd
 * there too where Node has it; the addon's zstd in this thread (a whole chunk at level 3 takes a few milliseconds).
 */
export async function compressChunkAsync(
  bytes: Uint8Array,
  codec: Codec = preferredCodec(),
): Promise<{ codec: Codec; data: Buffer }> {
  const z = codec === CODEC.zstd ? zstd() : undefined;
  if (z !== undefined) return { codec, data: await z.compressAsync(bytes) };
  return { codec: CODEC.brotli, data: await brotliAsync(bytes) };
}

/** The bytes of a chunk stored with `codec`; `path`: the archived file's, for the error when it cannot be read. */
export function decompressChunk(codec: number, data: Uint8Array, path = 'an archived file'): Buffer {
  switch (codec) {
    case CODEC.brotli:
      return zlib().brotliDecompressSync(data);
    case CODEC.zstd: {
      const z = zstd();
      if (z === undefined) {
        throw new ArchiveCodecError(
          path,
          codec,
          'zstd cannot be loaded here (Node before 22.15 and the zstd-napi addon not built: run `npm rebuild zstd-napi`)',
        );
      }
      return z.decompress(data);
    }
    default:
      throw new ArchiveCodecError(path, codec, 'a codec this version does not know');
  }
}

/**
 * `decompressChunk`'s bytes in pieces of at most `size` bytes (zstd through the addon; other codecs in one piece),
 * each in the same buffer as the one before while `reuse()` (asked after the piece was used) says so, else in a new
 * one: a large output written out as it is decompressed touches `size` bytes of fresh memory, not all of it. A
 * damaged chunk throws, possibly after some pieces.
 */
export function* decompressPieces(
  codec: number,
  data: Uint8Array,
  size: number,
  reuse: () => boolean,
): Generator<Uint8Array> {
  const pieces = codec === CODEC.zstd ? zstd()?.pieces : undefined;
  if (pieces === undefined) yield decompressChunk(codec, data);
  else yield* pieces(data, size, reuse);
}

/** An archived chunk this program cannot decompress (an unreadable file, as far as its readers go). */
export class ArchiveCodecError extends AgentDashError {
  readonly codec: number;
  constructor(path: string, codec: number, reason: string) {
    super('UNREADABLE_FILE', `the archived bytes of ${path} (codec ${codec}) cannot be read: ${reason}`);
    this.codec = codec;
  }
}
