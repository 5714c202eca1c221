/**
 * A parse worker (see parse-pool.ts): reads a new transcript file, decodes its records and builds their row
 * operations (record-rows.ts), and compresses the same bytes for the archive, posting all of it to the writer in
 * chunks.
 * Files are read synchronously (this thread has nothing else to do), so reads never queue behind other work on
 * libuv's thread pool. Reading pauses once the chunks the writer has not taken yet hold `MAX_UNACKED_BYTES` of
 * serialized operations (a fraction of the transcript bytes they come from): memory stays bounded however far ahead of
 * the writer the worker is.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { serialize } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import type { ByteSource, RecordEvent } from '@agentdash/core';
import { adapterForFile, agentOfRow } from '../agents.js';
import { CHUNK_BYTES as ARCHIVE_CHUNK_BYTES } from '../archive/archive.js';
import { compressChunk } from '../archive/archive-codec.js';
import { type RpcContext, serveRpc } from '../worker-rpc.js';
import { announceLoaded } from '../worker-script.js';
import { FactTracker } from './call-fact.js';
import { copiesOfRead, opsWithCopies } from './copy-rows.js';
import { DocNumbers } from './doc-parts.js';
import { FingerprintTee, fingerprintOf } from './fingerprint.js';
import type { ArchiveChunk, OpsChunk, ParseEnd, ParseFailed, ParseProtocol, ParseRequest } from './parse-pool.js';
import type { Op } from './row-ops.js';

/** Source bytes per chunk of operations posted to the writer. */
const OPS_BYTES = 1024 * 1024;
/**
 * Bytes of serialized row operations posted and not yet taken by the writer at which reading pauses: about what may
 * wait in the writer's queue for this worker (outside its heap, see `ParseJob`; the chunk being read when it is
 * reached is still posted, so it can be exceeded by one chunk). Deep enough that both workers read on while
 * the writer stores a long session one of them read (with a queue of a few MiB, the writer of a cold index waited for
 * rows a third of its time while the workers waited for it).
 */
const MAX_UNACKED_BYTES = 32 * 1024 * 1024;

const port = parentPort;
if (port === null) throw new Error('parse-worker.js runs as a worker thread');
// Its modules are evaluated: the thread may be stopped from now on (`stopWorker`).
announceLoaded();

/**
 * Scheduling priority of this thread: 10 nice steps below the writer's. The writer, in the main thread, is an import's
 * critical path; when the busy threads outnumber the cores (two workers on two cores did, as do other processes), at
 * equal priority the writer got two thirds of a core, and a cold index took longer than with the workers using only
 * what the writer leaves. Relative to the process's own nice value (a process already run
 * nicer keeps its workers below it), at most 19. Linux only: there a nice value is a thread's own (elsewhere it is
 * the whole process's, which this must not lower).
 */
const NICER_BY = 10;
if (process.platform === 'linux') {
  try {
    setPriority(0, Math.min(19, getPriority(0) + NICER_BY));
  } catch {
    // Not allowed here (some containers): the workers run at the writer's priority, as before.
  }
}

/** The serialized bytes of each chunk posted and not yet taken, oldest first (the writer takes them in order). */
const unacked: number[] = [];
let unackedBytes = 0;
let wake: (() => void) | undefined;

async function credit(): Promise<void> {
  while (unackedBytes >= MAX_UNACKED_BYTES) await new Promise<void>((resolve) => (wake = resolve));
}

/**
 * The bytes of the chunk being filled, for every file in turn (a worker runs one job at a time, and a whole chunk is
 * compressed into a buffer of its own at once): fresh 4 MiB buffers per chunk cost page faults on every byte.
 */
const scratch = Buffer.allocUnsafe(ARCHIVE_CHUNK_BYTES);

/**
 * The archive chunks of a file's bytes `[0, to)`, made from the bytes the parser reads (one read of the file, not
 * two): each chunk is compressed as soon as it is whole. A read that does not continue the last one (the parser
 * opened the file again, or skipped) spoils it; then `chunks` reads the file itself.
 */
class ArchiveTee {
  private readonly done: ArchiveChunk[] = [];
  private chunk: Buffer;
  /** Bytes in `done`, then in `chunk`. */
  private sealed = 0;
  private filled = 0;
  /** Where the next read must start to continue; -1 once spoiled. */
  private next = 0;

  constructor(
    private readonly path: string,
    private readonly to: number,
  ) {
    this.chunk = scratch.subarray(0, Math.min(ARCHIVE_CHUNK_BYTES, to));
  }

  /** Bytes the parser read at `position`. */
  take(bytes: Uint8Array, position: number): void {
    if (this.next < 0 || bytes.length === 0) return;
    if (position !== this.next) {
      this.next = -1;
      return;
    }
    this.next += bytes.length;
    let from = 0;
    while (from < bytes.length && this.archived() < this.to) {
      const n = Math.min(bytes.length - from, this.chunk.length - this.filled);
      this.chunk.set(bytes.subarray(from, from + n), this.filled);
      this.filled += n;
      from += n;
      if (this.filled === this.chunk.length) this.seal();
    }
  }

  /** The chunks of `[0, to)`: those made from the parser's reads, or read again when they do not cover it. */
  chunks(): ArchiveChunk[] {
    return this.next >= 0 && this.archived() === this.to ? this.done : archiveChunks(this.path, this.to);
  }

  private archived(): number {
    return this.sealed + this.filled;
  }

  private seal(): void {
    this.done.push({ offset: this.sealed, length: this.filled, ...compressChunk(this.chunk) });
    this.sealed += this.filled;
    this.filled = 0;
    this.chunk = scratch.subarray(0, Math.min(ARCHIVE_CHUNK_BYTES, this.to - this.sealed));
  }
}

/** What sees every read of a file (`ArchiveTee`, `FingerprintTee`). */
interface Tee {
  take(bytes: Uint8Array, position: number): void;
}

/** A file on disk, read synchronously; when `gated`, only while the writer keeps up; what is read goes to `tees`. */
function syncBytes(path: string, gated: boolean, tees: readonly Tee[] = []): ByteSource {
  const fd = openSync(path, 'r');
  return {
    read: async (buffer, offset, length, position) => {
      if (gated) await credit();
      const bytesRead = readSync(fd, buffer, offset, length, position);
      for (const tee of tees) tee.take(buffer.subarray(offset, offset + bytesRead), position);
      return { bytesRead };
    },
    close: async () => closeSync(fd),
    stat: async () => fstatSync(fd),
  };
}

/** The file's bytes `[0, to)` compressed as the archive stores them (`Archive.archiveRange`'s chunks). */
function archiveChunks(path: string, to: number): ArchiveChunk[] {
  const chunks: ArchiveChunk[] = [];
  const fd = openSync(path, 'r');
  try {
    let position = 0;
    while (position < to) {
      const length = Math.min(ARCHIVE_CHUNK_BYTES, to - position);
      // The tee's buffer: it is spoiled when this runs, and no chunk is left in it uncompressed.
      const buffer = scratch.subarray(0, length);
      const bytesRead = readSync(fd, buffer, 0, length, position);
      if (bytesRead === 0) break;
      chunks.push({ offset: position, length: bytesRead, ...compressChunk(buffer.subarray(0, bytesRead)) });
      position += bytesRead;
    }
  } finally {
    closeSync(fd);
  }
  return chunks;
}

const FAILED: ParseFailed = { type: 'failed' };

async function runJob(job: ParseRequest, context: RpcContext<OpsChunk>): Promise<ParseEnd | ParseFailed> {
  let ops: Op[] = [];
  let bytes = 0;
  let failed = false;
  const facts = new FactTracker(agentOfRow(job.file.agent));
  const adapter = adapterForFile(job.file);
  const copies = copiesOfRead(adapter, job.filed);
  const opsFile = { agentId: job.agentId, role: job.file.role, docs: new DocNumbers() };
  const tee = job.archiveTo === undefined ? undefined : new ArchiveTee(job.file.path, job.archiveTo);
  // The file's fingerprint from the bytes read, not read back at the end.
  const fingerprint = new FingerprintTee();
  const tees: Tee[] = tee === undefined ? [fingerprint] : [fingerprint, tee];
  const flush = () => {
    if (ops.length === 0) return;
    // Posted serialized, its buffer moved: it waits in the writer's queue off its heap (see `ParseJob`).
    const data = serialize(ops);
    unacked.push(data.length);
    unackedBytes += data.length;
    context.stream({ data }, [data.buffer]);
    ops = [];
    bytes = 0;
  };
  try {
    const end = await adapter.streamRecords(
      job.file,
      (event: RecordEvent) => {
        if (failed) return;
        try {
          opsWithCopies(event, opsFile, ops, facts, copies);
        } catch {
          // The writer reads the file again itself and meets the same failure (stored as an import failure).
          failed = true;
          return;
        }
        if (event.kind === 'record') bytes += event.byteLength;
        if (bytes >= OPS_BYTES || ops.length >= 20_000) flush();
      },
      {
        startOffset: 0,
        startLine: 1,
        open: async (path) => syncBytes(path, true, path === job.file.path ? tees : undefined),
      },
    );
    if (failed) return FAILED;
    try {
      facts.finish(ops);
    } catch {
      return FAILED;
    }
    flush();
    const archived = tee?.chunks();
    const tail =
      fingerprint.fingerprint(end.nextOffset) ??
      (await fingerprintOf(job.file.path, end.nextOffset, async (path) => syncBytes(path, false)));
    return { type: 'end', end, tail, archived };
  } catch {
    // Unreadable now: the writer reads it itself, to report it as it always does.
    return FAILED;
  }
}

/** The jobs run one at a time, in the order given (the writer takes their files in that order). */
let queue: Promise<unknown> = Promise.resolve();

serveRpc<ParseProtocol>(
  port,
  {
    parse: (job, context) => {
      const run = queue.then(() => runJob(job, context));
      queue = run.catch(() => undefined);
      return run;
    },
  },
  {
    notices: {
      ack: () => {
        unackedBytes -= unacked.shift() ?? 0;
        const w = wake;
        wake = undefined;
        w?.();
      },
    },
  },
);
