import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLES_HOME } from '../test/temp-home.js';
import { Archive, CHUNK_BYTES } from './archive.js';
import {
  ArchiveCodecError,
  CODEC,
  compressChunk,
  compressChunkAsync,
  decompressChunk,
  preferredCodec,
  zstdLevelFor,
} from './archive-codec.js';
import { migrate } from './schema.js';

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

  it("zstd's level goes by the chunk's size: 6 for small chunks, 3 from 1 MiB, sync and async alike", async () => {
    expect([
      zstdLevelFor(0),
      zstdLevelFor(1024 * 1024 - 1),
      zstdLevelFor(1024 * 1024),
      zstdLevelFor(CHUNK_BYTES),
    ]).toEqual([6, 6, 3, 3]);
    // zstd is deterministic for a level and a library version: the frames written are the ones the implementation
    // the module uses (Node's own where it has zstd, else the addon) writes at that level.
    const node = zlib as unknown as {
      zstdCompressSync?: (b: Uint8Array, o: { params: Record<number, number> }) => Buffer;
      constants: Record<string, number>;
    };
    const { Compressor } = createRequire(import.meta.url)('zstd-napi') as {
      Compressor: new () => { setParameters(p: { compressionLevel: number }): void; compress(b: Uint8Array): Buffer };
    };
    const atLevel = (level: number, bytes: Uint8Array) => {
      const levelParam = node.constants.ZSTD_c_compressionLevel;
      if (node.zstdCompressSync !== undefined && levelParam !== undefined) {
        return node.zstdCompressSync(bytes, { params: { [levelParam]: level } });
      }
      const compressor = new Compressor();
      compressor.setParameters({ compressionLevel: level });
      return compressor.compress(bytes);
    };
    const small = transcriptBytes().subarray(0, 512 * 1024);
    let large = transcriptBytes();
    while (large.length < 2 * 1024 * 1024) large = Buffer.concat([large, large]);
    for (const [bytes, level, other] of [
      [small, 6, 3],
      [large, 3, 6],
    ] as const) {
      const packed = compressChunk(bytes, CODEC.zstd).data;
      expect(packed.equals(atLevel(level, bytes))).toBe(true);
      expect(packed.equals(atLevel(other, bytes))).toBe(false);
      expect((await compressChunkAsync(bytes, CODEC.zstd)).data.equals(packed)).toBe(true);
      expect(decompressChunk(CODEC.zstd, packed).equals(bytes)).toBe(true);
    }
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
