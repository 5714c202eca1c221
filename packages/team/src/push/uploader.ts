/**
 * Chunks on their way to the team server: asked about in small groups (`chunks/check`), and those it lacks sent with
 * a few uploads in flight, so a push is not one round trip per chunk. Memory holds at most a group waiting to be
 * asked about and the uploads in flight.
 */
import type { Chunk } from './chunks.js';
import type { TeamClient } from './client.js';

/** Chunks asked about at once while files are read. */
const GROUP = 16;
/** Uploads in flight at once. */
const IN_FLIGHT = 4;

export class ChunkUploader {
  /** Chunks the server lacked and got. */
  uploaded = 0;
  /** Chunks the server is known to hold, from this push's checks and uploads: not asked about again. */
  readonly onServer = new Set<string>();
  private waiting: Chunk[] = [];
  private readonly running = new Set<Promise<void>>();
  private failure: { readonly error: unknown } | undefined;

  constructor(private readonly client: Pick<TeamClient, 'checkChunks' | 'putChunk'>) {}

  /** A chunk just made: sent if the server lacks it (asked about with the next ones). */
  async offer(chunk: Chunk): Promise<void> {
    this.waiting.push(chunk);
    if (this.waiting.length >= GROUP) await this.check();
  }

  /** A chunk known to be missing on the server: sent. */
  async put(chunk: Chunk): Promise<void> {
    this.throwIfFailed();
    while (this.running.size >= IN_FLIGHT) await Promise.race(this.running);
    this.throwIfFailed();
    const upload = this.client.putChunk(chunk.sha256, chunk.gz).then(
      () => {
        this.uploaded += 1;
        this.onServer.add(chunk.sha256);
      },
      (error: unknown) => {
        this.failure ??= { error };
      },
    );
    const tracked = upload.finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }

  /** Everything offered asked about and sent; throws the first upload's failure. */
  async drain(): Promise<void> {
    await this.check();
    await Promise.all(this.running);
    this.throwIfFailed();
  }

  private async check(): Promise<void> {
    const group = this.waiting;
    this.waiting = [];
    if (group.length === 0) return;
    const missing = new Set((await this.client.checkChunks(group.map((c) => c.sha256))).missing);
    for (const chunk of group) {
      // a chunk twice in one group (two equal files) is sent once
      if (missing.delete(chunk.sha256)) await this.put(chunk);
      else if (!missing.has(chunk.sha256)) this.onServer.add(chunk.sha256);
    }
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
