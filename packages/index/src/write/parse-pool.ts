/**
 * Parse workers for a large import: worker threads read and decode transcript files and build their rows
 * (record-rows.ts) while the one writer, in the calling thread, stores them in file order. Files are handed out a few
 * ahead of the writer; each worker pauses when the writer has not taken its last chunks (bounded memory).
 */
import { availableParallelism } from 'node:os';
import { deserialize, setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import type { DiscoveredFile, ReadEnd } from '@agentdash/core';
import type { Codec } from '../archive/archive-codec.js';
import type { NoNotices, RpcCall } from '../worker-rpc.js';
import { WorkerRpcClient } from '../worker-rpc.js';
import { builtWorkerScript, startBuiltWorker } from '../worker-script.js';
import type { Op } from './row-ops.js';

/** A new file to read from byte 0. */
export interface ParseRequest {
  readonly file: DiscoveredFile;
  /** The file row's subagent id. */
  readonly agentId: string | null;
  /** Archive the file's bytes up to here (its size when discovered); undefined: no archiving. */
  readonly archiveTo: number | undefined;
  /** The agent ids with a file in the file's session (copy-rows.ts: their copies are not their thread). */
  readonly filed: readonly string[];
}

/** A compressed chunk of the archive. */
export interface ArchiveChunk {
  readonly offset: number;
  readonly length: number;
  readonly codec: Codec;
  readonly data: Uint8Array;
}

/** Row operations, `v8.serialize`d (`Op[]`), streamed while the file is read. */
export interface OpsChunk {
  readonly data: Uint8Array;
}

/** A file read to its end. */
export interface ParseEnd {
  readonly type: 'end';
  readonly end: ReadEnd;
  /** The file's fingerprint at `end.nextOffset` (see fingerprint.ts). */
  readonly tail: string;
  /** The archive chunks of `[0, archiveTo)`, when asked. */
  readonly archived: readonly ArchiveChunk[] | undefined;
}

/** The worker could not read or convert the file: the writer reads it itself (and meets the failure there). */
export interface ParseFailed {
  readonly type: 'failed';
}

/**
 * The parse workers' protocol (worker-rpc.ts): `parse` streams a file's row operations and answers how it ended;
 * `ack` tells the worker the writer took one more of its chunks (see `MAX_UNACKED_BYTES` in parse-worker.ts).
 */
export type ParseProtocol = {
  readonly calls: { readonly parse: RpcCall<ParseRequest, ParseEnd | ParseFailed, OpsChunk> };
  readonly toWorker: { readonly ack: undefined };
  readonly fromWorker: NoNotices;
};

type ParseWorkerMessage = ({ readonly type: 'ops' } & OpsChunk) | ParseEnd | ParseFailed;
type Received = Exclude<ParseWorkerMessage, { type: 'ops' }> | { readonly type: 'ops'; readonly ops: Op[] };

/**
 * One file being parsed by a worker: its messages, taken in order by the writer. Row operations wait here as the
 * worker serialized them, outside the writer's heap, and become objects only when taken: queued objects would outlive
 * the young generation's collections, each of which would copy them again. Buffers among the values (ids stored as
 * bytes, documents' texts) are views into the whole chunk: kept, they keep it in memory (the writer holds texts for the
 * full-text index until they are inserted, counting the chunks they hold).
 */
export class ParseJob {
  private readonly queue: ParseWorkerMessage[] = [];
  private waiter: ((message: ParseWorkerMessage) => void) | undefined;
  private discarded = false;

  constructor(
    readonly file: DiscoveredFile,
    /** Whether the worker archives the file's bytes. */
    readonly archiving: boolean,
    /** `ParseRequest.filed`: the writer uses the job only when its session still has these agents' files. */
    readonly filed: readonly string[],
    private readonly rpc: WorkerRpcClient<ParseProtocol>,
  ) {}

  /** The worker reading the file. */
  get worker(): Worker {
    return this.rpc.worker;
  }

  /** @internal A message from the worker. */
  receive(message: ParseWorkerMessage): void {
    if (this.discarded) {
      if (message.type === 'ops') this.ack();
      return;
    }
    const w = this.waiter;
    this.waiter = undefined;
    if (w !== undefined) w(message);
    else this.queue.push(message);
  }

  /** The next message of this file (an `ops` chunk is acknowledged as it is taken). */
  next(): Promise<Received> {
    const queued = this.queue.shift();
    const taken =
      queued !== undefined ? Promise.resolve(queued) : new Promise<ParseWorkerMessage>((r) => (this.waiter = r));
    return taken.then((message) => {
      if (message.type !== 'ops') return message;
      this.ack();
      return { type: 'ops', ops: deserialize(message.data) as Op[] };
    });
  }

  /** Not wanted after all (another process imported the file): the rest of its chunks are dropped as they come. */
  discard(): void {
    this.discarded = true;
    for (const message of this.queue.splice(0)) if (message.type === 'ops') this.ack();
  }

  private ack(): void {
    this.rpc.notify('ack', undefined);
  }
}

/** Old-space size (MiB) below which a parse worker's heap is not fully collected (`roomyOldSpace`). */
const INITIAL_OLD_SPACE_MB = 64;

/**
 * Let the isolates started from now on (the parse workers) grow their old space to `INITIAL_OLD_SPACE_MB` before V8
 * collects it whole. A worker's long-lived heap is small, but each long line it parses (a large tool output) is
 * allocated there directly; with V8's starting limits a worker ran a full collection every few megabytes of them (many
 * times as many as with this), and the collections' helper threads took CPU from the writer. A V8 flag, read when an
 * isolate is created, so it reaches the workers but not this thread; left alone when the user gave it to node.
 * Returns what puts it back (once the workers are running, so that threads started later, such as the server's, keep
 * V8's default).
 */
function roomyOldSpace(): () => void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some(
    (arg) => arg.startsWith('--initial-old-space-size') || arg.startsWith('--initial_old_space_size'),
  );
  if (given) return () => {};
  setFlagsFromString(`--initial-old-space-size=${INITIAL_OLD_SPACE_MB}`);
  return () => setFlagsFromString('--initial-old-space-size=0');
}

/**
 * Parse workers on a machine of `cores`: one core is left to the writer (the calling thread), at least one worker and
 * at most two. Two workers beside the writer on two cores made three busy threads, and each worker's isolate compiles
 * and warms up the same parser code again on V8's helper threads: the second worker cost more CPU than it saved the
 * first, and memory for its queue and heap.
 */
export function defaultParseWorkers(cores: number): number {
  return Math.min(2, Math.max(1, cores - 1));
}

/** Worker threads parsing files for one refresh. */
export class ParsePool {
  private readonly workers: WorkerRpcClient<ParseProtocol>[];
  private readonly jobs = new Set<ParseJob>();
  /** The bytes of the files each worker has been given and not finished: a new file goes to the least loaded. */
  private readonly load = new Map<WorkerRpcClient<ParseProtocol>, number>();
  private failure: Error | undefined;

  private constructor(script: URL, count: number) {
    const restoreOldSpace = roomyOldSpace();
    this.workers = Array.from({ length: count }, () => {
      const rpc = new WorkerRpcClient<ParseProtocol>(startBuiltWorker(script), {});
      // A worker that dies fails its jobs (their calls are rejected): the writer reads those files itself.
      rpc.worker.on('error', (error) => (this.failure ??= error));
      rpc.worker.on('exit', (code) => (this.failure ??= new Error(`parse worker exited with code ${code}`)));
      this.load.set(rpc, 0);
      return rpc;
    });
    // A worker's isolate exists once it runs code (or it failed to start): then the flag is no longer needed.
    const started = (worker: Worker) =>
      new Promise<void>((resolve) => {
        for (const event of ['online', 'error', 'exit']) worker.once(event, () => resolve());
      });
    void Promise.all(this.workers.map((rpc) => started(rpc.worker))).then(restoreOldSpace);
  }

  /** A pool of `count` workers (default: `defaultParseWorkers`), or undefined when the worker script is not built. */
  static create(count = defaultParseWorkers(availableParallelism())): ParsePool | undefined {
    const script = builtWorkerScript('parse-worker.js', import.meta.url);
    return script === undefined || count < 1 ? undefined : new ParsePool(script, count);
  }

  /**
   * Start reading a new file on the worker with the fewest bytes still to read (and archiving its bytes, when asked):
   * by bytes, not files, so that a large file does not leave one worker with all the work.
   */
  submit(file: DiscoveredFile, agentId: string | null, archiving: boolean, filed: readonly string[] = []): ParseJob {
    const rpc = this.workers.reduce((a, b) => ((this.load.get(b) ?? 0) < (this.load.get(a) ?? 0) ? b : a));
    const job = new ParseJob(file, archiving, filed, rpc);
    if (this.failure !== undefined) {
      job.receive({ type: 'failed' });
      return job;
    }
    this.jobs.add(job);
    this.load.set(rpc, (this.load.get(rpc) ?? 0) + file.size);
    const finished = (message: ParseEnd | ParseFailed) => {
      this.jobs.delete(job);
      this.load.set(rpc, (this.load.get(rpc) ?? 0) - file.size);
      job.receive(message);
    };
    const request: ParseRequest = { file, agentId, archiveTo: archiving ? file.size : undefined, filed };
    rpc
      .call('parse', request, { onStream: (chunk) => job.receive({ type: 'ops', data: chunk.data }) })
      .then(finished, () => finished({ type: 'failed' }));
    return job;
  }

  async close(): Promise<void> {
    for (const job of this.jobs) job.discard();
    await Promise.all(this.workers.map((rpc) => rpc.terminate()));
  }
}
