/**
 * The read-ahead scheduler of a refresh: new files on disk are handed to the parse workers (parse-pool.ts) a window
 * ahead of the writer, in import order, and the writer takes each file's job when its turn comes.
 */
import type { DiscoveredFile } from '@agentdash/core';
import { type ParseJob, ParsePool } from './parse-pool.js';

/** New bytes from which parse workers read files ahead of the writer (below, starting them costs more than it saves). */
export const PARALLEL_BYTES = 16 * 1024 * 1024;

/**
 * Files handed to the parse workers ahead of the one being written. A file waiting its turn holds only its
 * compressed archive chunks once read (each worker also pauses at `MAX_UNACKED_BYTES` of rows not taken): many
 * small files ahead keep both workers busy while the writer stores a large one.
 */
const FILES_AHEAD = 256;

export class ReadAhead {
  private readonly jobs = new Map<string, ParseJob>();
  private submitted = 0;

  private constructor(
    private readonly pool: ParsePool | undefined,
    private readonly files: readonly DiscoveredFile[],
    private readonly archiving: boolean,
    /** The agent ids with a file in a file's session (`ParseRequest.filed`), asked when its job is handed out. */
    private readonly filedOf: (file: DiscoveredFile) => readonly string[],
  ) {}

  /**
   * Parse workers for these files (new files on disk, in import order), or none: when `workers` is 0, or, unless
   * given, when the files hold less than `PARALLEL_BYTES`, or when the worker script is not built.
   */
  static start(
    files: readonly DiscoveredFile[],
    bytes: number,
    archiving: boolean,
    workers: number | undefined,
    filedOf: (file: DiscoveredFile) => readonly string[] = () => [],
  ): ReadAhead {
    const pool =
      workers === 0 || (workers === undefined && bytes < PARALLEL_BYTES) ? undefined : ParsePool.create(workers);
    return new ReadAhead(pool, files, archiving, filedOf);
  }

  /**
   * The job reading this file, if a worker reads it (a new file on disk), once the window ahead of it is handed out.
   * Taken once: the caller stores it, or discards it.
   */
  take(path: string): ParseJob | undefined {
    while (this.pool !== undefined && this.submitted < this.files.length && this.jobs.size < FILES_AHEAD) {
      const file = this.files[this.submitted++] as DiscoveredFile;
      this.jobs.set(file.path, this.pool.submit(file, file.agentId ?? null, this.archiving, this.filedOf(file)));
    }
    const job = this.jobs.get(path);
    this.jobs.delete(path);
    return job;
  }

  /** Stop the workers (a pool left open keeps the process alive). */
  async close(): Promise<void> {
    await this.pool?.close();
  }
}
