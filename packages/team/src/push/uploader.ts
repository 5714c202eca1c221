/**
 * Chunks on their way to the team server: asked about in groups (`chunks/check`), and those it lacks sent several to
 * a request (`POST chunks`, one PUT each to a server without that route), a few requests in flight, so a push is not
 * one round trip per chunk (most transcripts are small files, each a chunk of its own). Memory holds at most a group
 * waiting to be asked about, a batch being filled and the requests in flight.
 */
import type { Chunk } from './chunks.js';
import { PushError, type TeamClient } from './client.js';

/** Chunks asked about at once while files are read (or fewer, once they hold `GROUP_BYTES`). */
const GROUP = 64;
const GROUP_BYTES = 8 * 1024 * 1024;
/** Bytes of chunks sent in one request (a batch is sent once it holds this many). */
const BATCH_BYTES = 4 * 1024 * 1024;
/** Requests in flight at once. */
const IN_FLIGHT = 4;

export class ChunkUploader {
  /** Chunks the server lacked and got. */
  uploaded = 0;
  /** Chunks the server is known to hold, from this push's checks and uploads: not asked about again. */
  readonly onServer = new Set<string>();
  private waiting: Chunk[] = [];
  private waitingBytes = 0;
  private batch: Chunk[] = [];
  private batchBytes = 0;
  /** The server has no `POST chunks` (an older team server): each chunk is PUT alone. */
  private single = false;
  private readonly running = new Set<Promise<void>>();
  private failure: { readonly error: unknown } | undefined;

  constructor(private readonly client: Pick<TeamClient, 'checkChunks' | 'putChunk' | 'putChunks'>) {}

  /** A chunk just made: sent if the server lacks it (asked about with the next ones). */
  async offer(chunk: Chunk): Promise<void> {
    this.waiting.push(chunk);
    this.waitingBytes += chunk.gz.byteLength;
    if (this.waiting.length >= GROUP || this.waitingBytes >= GROUP_BYTES) await this.check();
  }

  /** A chunk known to be missing on the server: sent with the next ones. */
  async put(chunk: Chunk): Promise<void> {
    this.throwIfFailed();
    this.batch.push(chunk);
    this.batchBytes += chunk.gz.byteLength;
    if (this.batchBytes >= BATCH_BYTES) await this.send();
  }

  /** Everything offered asked about and sent; throws the first upload's failure. */
  async drain(): Promise<void> {
    await this.check();
    await this.send();
    await Promise.all(this.running);
    this.throwIfFailed();
  }

  private async check(): Promise<void> {
    const group = this.waiting;
    this.waiting = [];
    this.waitingBytes = 0;
    if (group.length === 0) return;
    const missing = new Set((await this.client.checkChunks(group.map((c) => c.sha256))).missing);
    for (const chunk of group) {
      // a chunk twice in one group (two equal files) is sent once
      if (missing.delete(chunk.sha256)) await this.put(chunk);
      else if (!missing.has(chunk.sha256)) this.onServer.add(chunk.sha256);
    }
  }

  /** The batch filled so far, on its way (after a request in flight ends, when `IN_FLIGHT` are). */
  private async send(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    if (batch.length === 0) return;
    this.throwIfFailed();
    while (this.running.size >= IN_FLIGHT) await Promise.race(this.running);
    this.throwIfFailed();
    const upload = this.upload(batch).then(
      () => {
        this.uploaded += batch.length;
        for (const chunk of batch) this.onServer.add(chunk.sha256);
      },
      (error: unknown) => {
        this.failure ??= { error };
      },
    );
    const tracked = upload.finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }

  private async upload(batch: readonly Chunk[]): Promise<void> {
    if (!this.single) {
      try {
        await this.client.putChunks(batch);
        return;
      } catch (error) {
        // a team server of before the route: 404 (or 405 behind a proxy); anything else is the push's failure
        if (!(error instanceof PushError && (error.status === 404 || error.status === 405))) throw error;
        this.single = true;
      }
    }
    for (const chunk of batch) await this.client.putChunk(chunk.sha256, chunk.gz);
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
