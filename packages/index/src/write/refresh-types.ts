/*
 * What a refresh takes and reports (`AgentIndex.refresh`): its options, its progress after each file, its report.
 * Re-exported by types.ts with the rest of the index's public types.
 */

/** What one `refresh` did. */
export interface RefreshReport {
  /** Transcript files in scope (discovered under the given paths). */
  readonly files: number;
  /** Files read in this run (new, grown, truncated or replaced). */
  readonly filesParsed: number;
  /** Bytes read in this run; 0 when nothing changed. */
  readonly bytesParsed: number;
  /** Records decoded in this run. */
  readonly records: number;
  /** Parse issues stored for the files in scope (malformed lines etc.), plus discovery issues. */
  readonly issues: number;
  /** Issues found in this run: the parse issues of the files it read, and the sessions it found without their main file. */
  readonly newIssues: number;
  /** Files dropped from the index because they are gone. */
  readonly filesRemoved: number;
  /** Sessions in scope after the refresh. */
  readonly sessions: number;
  /** Files in scope that are gone from disk and kept from the archive (included in `files`). */
  readonly archivedFiles: number;
  /**
   * Set when nothing was read because another process is building the index (`partialWhileBuilding`): the counts
   * are of what it has committed so far, and how far it has come.
   */
  readonly partial?: { readonly filesDone: number; readonly filesTotal: number };
}

/** Progress of a refresh, after each file (newest files come first). */
export interface RefreshProgress {
  /** Files handled so far (read, or found unchanged; = `filesDone`). */
  readonly done: number;
  /** Files discovered in scope (= `filesTotal`). */
  readonly total: number;
  /** The file just handled; '' for the first report, made once discovery is over. */
  readonly file: string;
  readonly filesDone: number;
  readonly filesTotal: number;
  /** Sizes on disk of the files handled so far (unchanged files count at once). */
  readonly bytesDone: number;
  /** Sizes of all discovered files, in bytes. */
  readonly bytesTotal: number;
}

export interface RefreshOptions {
  readonly onProgress?: (progress: RefreshProgress) => void;
  /** Awaited before each file is imported: lets a caller pace or hold the import (tests hold it to see it midway). */
  readonly beforeFile?: (file: string) => Promise<void> | void;
  /** Keep a compressed copy of new transcript bytes in the database (default: the stored setting, on). */
  readonly archive?: boolean;
  /**
   * Worker threads that read and decode new files ahead of the writer: 0 reads every file in the calling thread;
   * default: up to two when there are many new bytes (a first index), else none. The index is the same either way.
   */
  readonly parseWorkers?: number;
  /**
   * Look only at the stored and archived files under `paths`: a file gone from disk elsewhere is left for a later
   * refresh of its own folder, and the report counts `paths` alone. Without it every stored file is looked at, so a
   * file gone anywhere (and not archived) leaves the index. For the server's refresh of the folders an append touched:
   * its cost then follows those folders, not the whole index (every stored file, on every append).
   */
  readonly onlyUnder?: boolean;
  /**
   * Leave a freshness record, so that the next run can tell with one pass of stats that nothing changed
   * (`WarmIndex.fresh`, in `@agentdash/index/warm`). Costs a stat of every folder above the files and a small write;
   * for one-shot commands, not for a server refreshing on every append.
   */
  readonly freshnessRecord?: boolean;
  /**
   * Only these stored files changed since the freshness record of the paths (`WarmIndex.check` saw every other file
   * as stored and no folder change): only their project folders are read, not every folder under the paths, and
   * the record is renewed. A full refresh when one of them is not stored or its folder is gone.
   */
  readonly changedFiles?: readonly string[];
  /**
   * When another process is building the index (a first index of a large home, `serve` starting cold), read
   * nothing: report what it has committed, with its progress in `RefreshReport.partial`, at once. Without it the
   * refresh waits for each of the other's batches and reads what it has not read yet itself. For reading commands.
   */
  readonly partialWhileBuilding?: boolean;
  /**
   * New bytes from which a refresh announces itself to other processes as a build (default 16 MiB: a first index
   * that takes seconds). 0 announces every refresh that reads a new file.
   */
  readonly buildNoticeBytes?: number;
}
