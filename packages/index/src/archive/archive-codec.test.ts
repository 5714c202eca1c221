import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLES_HOME } from '../../test/temp-home.js';
import { zstdFrame } from '../../test/zstd-frames.js';
import { migrate } from '../schema/schema.js';
import { Archive, CHUNK_BYTES } from './archive.js';
import {
  ArchiveCodecError,
  CODEC,
  compressChunk,
  compressChunkAsync,
  decompressChunk,
  decompressPieces,
  preferredCodec,
  zstdLevelFor,
} from './archive-codec.js';

let dir: string;
let db: Database.Database;
let archive: Archive;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-codec-'));
  db = new Database(join(dir, 'index.sqlite'));
  migrate(db);
  archive = new Archive(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A real transcript's bytes: the bundled samples' largest session file. */
function transcriptBytes(): Buffer {
  const folder = join(SAMPLES_HOME, 'projects');
  const files = readdirSync(folder).flatMap((project) =>
    readdirSync(join(folder, project))
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => join(folder, project, name)),
  );
  const largest = files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (largest === undefined) throw new Error('the samples hold transcripts');
  return readFileSync(largest);
}

/** Node's zstd where it has one (22.15+; @types/node 20 does not know it). */
const node = zlib as unknown as {
  zstdCompressSync?: (b: Uint8Array, o: { params: Record<number, number> }) => Buffer;
  zstdDecompressSync?: (b: Uint8Array) => Buffer;
  zstdCompress?: (
    b: Uint8Array,
    o: { params: Record<number, number> },
    done: (error: Error | null, out: Buffer) => void,
  ) => void;
  constants: Record<string, number>;
};
/** The zstd-napi addon (built here, whichever Node runs the tests). */
const addon = createRequire(import.meta.url)('zstd-napi') as {
  Compressor: new () => {
    setParameters(p: { compressionLevel: number; contentSizeFlag?: boolean }): void;
    compress(b: Uint8Array): Buffer;
  };
  decompress(b: Uint8Array): Buffer;
};

/** A frame of `bytes` at `level`, written as the module writes a chunk synchronously (the addon, built here). */
function atLevel(level: number, bytes: Uint8Array): Buffer {
  const compressor = new addon.Compressor();
  compressor.setParameters({ compressionLevel: level });
  return compressor.compress(bytes);
}

function chunkCodecs(path: string): number[] {
  return db.prepare('SELECT codec FROM archive_chunks WHERE path = ? ORDER BY offset').pluck().all(path) as number[];
}

async function readBack(path: string): Promise<Buffer> {
  const source = archive.source(path);
  const out = Buffer.alloc(archive.end(path));
  const { bytesRead } = await source.read(out, 0, out.length, 0);
  let at = bytesRead;
  while (at < out.length) at += source.readSync(out, at, out.length - at, at);
  return out;
}

describe('archive codecs', () => {
  it('writes zstd where it loads (zstd-napi is a dependency), and both codecs give the bytes back', () => {
    expect(preferredCodec()).toBe(CODEC.zstd);
    const bytes = transcriptBytes();
    for (const codec of [CODEC.brotli, CODEC.zstd]) {
      const packed = compressChunk(bytes, codec);
      expect(packed.codec).toBe(codec);
      expect(packed.data.length).toBeLessThan(bytes.length / 3);
      expect(decompressChunk(codec, packed.data).equals(bytes)).toBe(true);
    }
    // Each codec's frames are its own: reading one as the other fails, so the codec column matters.
    expect(() => decompressChunk(CODEC.zstd, compressChunk(bytes, CODEC.brotli).data)).toThrow();
  });

  it("zstd's level goes by the chunk's size: 8 for small chunks, 3 from 1 MiB, sync and async alike", async () => {
    expect([
      zstdLevelFor(0),
      zstdLevelFor(1024 * 1024 - 1),
      zstdLevelFor(1024 * 1024),
      zstdLevelFor(CHUNK_BYTES),
    ]).toEqual([8, 8, 3, 3]);
    // zstd is deterministic for a level, a library version and a way of calling it: the frames written are the ones
    // the implementation the module uses (the addon where it is built, as here) writes at that level. Every
    // frame, sync or async, is one whole frame holding the chunk's bytes and declaring its size if it declares one;
    // bytes for bytes, async frames may differ (Node 22 and 24 write no content size asynchronously unless told it).
    const small = transcriptBytes().subarray(0, 512 * 1024);
    let large = transcriptBytes();
    while (large.length < 2 * 1024 * 1024) large = Buffer.concat([large, large]);
    for (const [bytes, level, other] of [
      [small, 8, 3],
      [large, 3, 8],
    ] as const) {
      const packed = compressChunk(bytes, CODEC.zstd).data;
      expect(packed.equals(atLevel(level, bytes))).toBe(true);
      expect(packed.equals(atLevel(other, bytes))).toBe(false);
      expect(zstdFrame(packed).contentSize).toBe(bytes.length);
      const async = await compressChunkAsync(bytes, CODEC.zstd);
      expect(async.codec).toBe(CODEC.zstd);
      for (const frame of [packed, async.data]) {
        expect([undefined, bytes.length]).toContain(zstdFrame(frame).contentSize);
        expect(decompressChunk(CODEC.zstd, frame).equals(bytes)).toBe(true);
        expect(addon.decompress(frame).equals(bytes)).toBe(true);
        if (node.zstdDecompressSync !== undefined) expect(node.zstdDecompressSync(frame).equals(bytes)).toBe(true);
      }
      // Told the chunk's size from the start (sync, or async with the size pledged), zstd writes the same frame;
      // where Node ignores the pledge, the async frame declares no size and holds the same bytes (checked above).
      if (zstdFrame(async.data).contentSize !== undefined) expect(async.data.equals(packed)).toBe(true);
    }
  });

  it('reads frames that declare no content size, whichever encoder wrote them', async () => {
    // What any encoder streaming bytes of unknown length writes: here the addon told not to write the size, and
    // Node's async zstd not told the size (which writes none on Node 22 and 24, and writes it on 26).
    const bytes = transcriptBytes();
    const unsized = new addon.Compressor();
    unsized.setParameters({ compressionLevel: 6, contentSizeFlag: false });
    const frames = [unsized.compress(bytes)];
    expect(zstdFrame(frames[0] as Buffer).contentSize).toBeUndefined();
    if (node.zstdCompress !== undefined) {
      const level = node.constants.ZSTD_c_compressionLevel as number;
      frames.push(await promisify(node.zstdCompress)(bytes, { params: { [level]: 6 } }));
    }
    for (const frame of frames) {
      expect([undefined, bytes.length]).toContain(zstdFrame(frame).contentSize);
      expect(decompressChunk(CODEC.zstd, frame).equals(bytes)).toBe(true);
      expect(addon.decompress(frame).equals(bytes)).toBe(true);
    }
  });

  it('reads two frames in one chunk, an empty one as nothing, and refuses a cut frame', () => {
    // The one-call path takes a single frame that declares its size; anything else goes to the streaming decoder.
    const bytes = transcriptBytes();
    const half = Math.floor(bytes.length / 2);
    const two = Buffer.concat([atLevel(8, bytes.subarray(0, half)), atLevel(8, bytes.subarray(half))]);
    expect(decompressChunk(CODEC.zstd, two).equals(bytes)).toBe(true);
    const whole = atLevel(8, bytes);
    expect(() => decompressChunk(CODEC.zstd, whole.subarray(0, whole.length - 9))).toThrow();
    // no bytes at all read as nothing, as zstd's streaming decoder reads them
    expect(decompressChunk(CODEC.zstd, Buffer.alloc(0)).length).toBe(0);
  });

  it('gives a chunk back in pieces, in one buffer while it may be reused, and refuses a cut frame', () => {
    const bytes = transcriptBytes();
    const half = Math.floor(bytes.length / 2);
    const two = Buffer.concat([atLevel(8, bytes.subarray(0, half)), atLevel(8, bytes.subarray(half))]);
    const small = compressChunk(bytes, CODEC.zstd, 12);
    expect(decompressChunk(small.codec, small.data).equals(bytes)).toBe(true);
    const size = 16 * 1024;
    for (const frame of [atLevel(3, bytes), two, small.data]) {
      const copies: Buffer[] = [];
      const buffers = new Set<ArrayBufferLike>();
      for (const piece of decompressPieces(CODEC.zstd, frame, size, () => true)) {
        expect(piece.length).toBeLessThanOrEqual(size);
        copies.push(Buffer.from(piece));
        buffers.add(piece.buffer);
      }
      expect(Buffer.concat(copies).equals(bytes)).toBe(true);
      expect(copies.length).toBeGreaterThan(2);
      expect(buffers.size).toBe(1);
      // Not reused: each piece kept as given stays whole.
      expect(Buffer.concat([...decompressPieces(CODEC.zstd, frame, size, () => false)]).equals(bytes)).toBe(true);
    }
    const cut = atLevel(3, bytes).subarray(0, -9);
    expect(() => [...decompressPieces(CODEC.zstd, cut, size, () => true)]).toThrow();
    // and the frame after it reads whole (a cut stream leaves nothing behind)
    expect(Buffer.concat([...decompressPieces(CODEC.zstd, two, size, () => false)]).equals(bytes)).toBe(true);
    const brotli = compressChunk(bytes, CODEC.brotli);
    expect([...decompressPieces(brotli.codec, brotli.data, size, () => true)].map(Buffer.from)).toEqual([bytes]);
  });

  it('a path archived with brotli before (schema 24) and appended to with zstd reads back whole', async () => {
    const path = join(dir, 'session.jsonl');
    const bytes = transcriptBytes();
    const cut = Math.floor(bytes.length / 2);
    writeFileSync(path, bytes.subarray(0, cut));
    // What an older AgentDash stored: brotli chunks (the column's default, as the migration leaves them).
    db.prepare('INSERT INTO archive_chunks (path, offset, length, data) VALUES (?, 0, ?, ?)').run(
      path,
      cut,
      compressChunk(bytes.subarray(0, cut), CODEC.brotli).data,
    );
    appendFileSync(path, bytes.subarray(cut));
    expect(await archive.archiveRange(path, cut, bytes.length)).toBe(bytes.length);
    expect(chunkCodecs(path)).toEqual([CODEC.brotli, CODEC.zstd]);
    expect((await readBack(path)).equals(bytes)).toBe(true);

    // Cutting inside the brotli chunk rewrites its head with today's codec; the bytes before the cut stay.
    archive.truncate(path, cut - 100);
    expect(chunkCodecs(path)).toEqual([CODEC.zstd]);
    expect((await readBack(path)).equals(bytes.subarray(0, cut - 100))).toBe(true);
  });

  it('a file larger than a chunk is archived in zstd chunks that read back whole', async () => {
    const path = join(dir, 'big.jsonl');
    const line = transcriptBytes();
    const copies = Math.ceil((CHUNK_BYTES * 1.5) / line.length);
    writeFileSync(path, Buffer.concat(Array.from({ length: copies }, () => line)));
    const size = line.length * copies;
    expect(await archive.archiveRange(path, 0, size)).toBe(size);
    expect(chunkCodecs(path)).toEqual([CODEC.zstd, CODEC.zstd]);
    expect((await readBack(path)).equals(readFileSync(path))).toBe(true);
  });

  it('a chunk of a codec this program does not know is an unreadable file, not a crash', async () => {
    const path = join(dir, 'future.jsonl');
    db.prepare("INSERT INTO archive_chunks (path, offset, length, codec, data) VALUES (?, 0, 3, 7, x'010203')").run(
      path,
    );
    const error = (() => {
      try {
        archive.source(path).readSync(Buffer.alloc(3), 0, 3, 0);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ArchiveCodecError);
    expect((error as ArchiveCodecError).code).toBe('UNREADABLE_FILE');
    expect((error as Error).message).toContain(`the archived bytes of ${path} (codec 7) cannot be read`);
  });
});
