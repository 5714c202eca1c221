/**
 * A parse worker (see parse-pool.ts): reads a new transcript file, decodes its records and builds their row
 * operations (record-rows.ts), and compresses its bytes for the archive, posting all of it to the writer in chunks.
 * Files are read synchronously (this thread has nothing else to do), so reads never queue behind other work on
 * libuv's thread pool. Reading pauses while the chunks the writer has not taken yet hold `MAX_UNACKED_BYTES` of
 * transcript: memory stays bounded however far ahead of the writer the worker is.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { ByteSource, RecordEvent } from '@agentdash/core';
import { adapterForFile, agentOfRow } from './agents.js';
import { CHUNK_BYTES as ARCHIVE_CHUNK_BYTES, compressChunkSync } from './archive.js';
import { FactTracker } from './call-fact.js';
import { fingerprintOf } from './fingerprint.js';
import type { ArchiveChunk, ParseJobMessage, ParseWorkerMessage } from './parse-pool.js';
import { type Op, opsOfEvent } from './record-rows.js';

/** Source bytes per chunk of operations posted to the writer. */
const OPS_BYTES = 1024 * 1024;
/**
 * Transcript bytes in chunks posted and not yet taken by the writer before reading pauses. Deep enough that a worker
 * reads on while the writer waits for the other one's large file (a cold index of the 0.25 GiB bench home spent a
 * quarter of its time with a core idle at 3 chunks), small enough to bound what waits in the writer's queue.
 */
const MAX_UNACKED_BYTES = 4 * 1024 * 1024;

const port = parentPort;
if (port === null) throw new Error('parse-worker.js runs as a worker thread');

/** The transcript bytes of each chunk posted and not yet taken, oldest first (the writer takes them in order). */
const unacked: number[] = [];
let unackedBytes = 0;
let wake: (() => void) | undefined;
const jobs: ParseJobMessage[] = [];
let running = false;

function post(message: ParseWorkerMessage): void {
  port?.postMessage(message);
}

async function credit(): Promise<void> {
  while (unackedBytes >= MAX_UNACKED_BYTES) await new Promise<void>((resolve) => (wake = resolve));
}

/** A file on disk, read synchronously; when `gated`, only while the writer keeps up. */
function syncBytes(path: string, gated: boolean): ByteSource {
  const fd = openSync(path, 'r');
  return {
    read: async (buffer, offset, length, position) => {
      if (gated) await credit();
      return { bytesRead: readSync(fd, buffer, offset, length, position) };
    },
    close: async () => closeSync(fd),
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
      const buffer = Buffer.allocUnsafe(length);
      const bytesRead = readSync(fd, buffer, 0, length, position);
      if (bytesRead === 0) break;
      chunks.push({ offset: position, length: bytesRead, data: compressChunkSync(buffer.subarray(0, bytesRead)) });
      position += bytesRead;
    }
  } finally {
    closeSync(fd);
  }
  return chunks;
}

async function runJob(job: ParseJobMessage): Promise<void> {
  let ops: Op[] = [];
  let bytes = 0;
  let failed = false;
  const facts = new FactTracker(agentOfRow(job.file.agent));
  const flush = () => {
    if (ops.length === 0) return;
    unacked.push(bytes);
    unackedBytes += bytes;
    post({ type: 'ops', job: job.job, ops });
    ops = [];
    bytes = 0;
  };
  try {
    const end = await adapterForFile(job.file).streamRecords(
      job.file,
      (event: RecordEvent) => {
        if (failed) return;
        try {
          const from = ops.length;
          opsOfEvent(event, { agentId: job.agentId, role: job.file.role }, ops);
          facts.track(event, ops, from);
        } catch {
          // The writer reads the file again itself and meets the same failure (stored as an import failure).
          failed = true;
          return;
        }
        if (event.kind === 'record') bytes += event.byteLength;
        if (bytes >= OPS_BYTES || ops.length >= 20_000) flush();
      },
      { startOffset: 0, startLine: 1, open: async (path) => syncBytes(path, true) },
    );
    if (failed) {
      post({ type: 'failed', job: job.job });
      return;
    }
    try {
      facts.finish(ops);
    } catch {
      post({ type: 'failed', job: job.job });
      return;
    }
    flush();
    const archived = job.archiveTo === undefined ? undefined : archiveChunks(job.file.path, job.archiveTo);
    const tail = await fingerprintOf(job.file.path, end.nextOffset, async (path) => syncBytes(path, false));
    post({ type: 'end', job: job.job, end, tail, archived });
  } catch {
    // Unreadable now: the writer reads it itself, to report it as it always does.
    post({ type: 'failed', job: job.job });
  }
}

async function drain(): Promise<void> {
  if (running) return;
  running = true;
  for (let job = jobs.shift(); job !== undefined; job = jobs.shift()) await runJob(job);
  running = false;
}

port.on('message', (message: ParseJobMessage | { type: 'ack' }) => {
  if (message.type === 'ack') {
    unackedBytes -= unacked.shift() ?? 0;
    const w = wake;
    wake = undefined;
    w?.();
    return;
  }
  jobs.push(message);
  void drain();
});
