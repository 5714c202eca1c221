/** The first index build after start, run in the background while the server already answers. */
import { statSync } from 'node:fs';

import { messageOf } from '@agentdash/core/base';
import { DAMAGED_INDEX_MEND, isCorruption, type RefreshProgress, type RefreshReport } from '@agentdash/index';
import type { AgentIndex } from './agent-index.js';
import type { IndexStatus, LiveMessage } from './api-types.js';

export interface BackgroundIndexOptions {
  readonly index: AgentIndex;
  readonly paths: readonly string[];
  /** Where progress and "the list grew" notices go (the SSE stream). */
  readonly publish: (message: LiveMessage) => void;
  /** Also told of every progress step (the CLI draws its bar from it). */
  readonly onProgress?: ((progress: RefreshProgress) => void) | undefined;
  /** Awaited before each file is read (tests hold the import with it). */
  readonly beforeFile?: ((file: string) => Promise<void>) | undefined;
  /** How often the status is published while it moves (the first and last always go at once). Default 200 ms. */
  readonly progressEveryMs?: number;
  /** How often `sessions-changed` goes out while files are being added, so lists fill as it goes. Default 1000 ms. */
  readonly listEveryMs?: number;
  readonly now?: () => number;
}

export interface BackgroundIndex {
  status(): IndexStatus;
  /** Settles when the first refresh is over: its report, or undefined when it failed (see `status().error`). */
  readonly done: Promise<RefreshReport | undefined>;
}

/** A status for an index that was brought up to date before the server started. */
export function readyStatus(now: number = Date.now()): IndexStatus {
  const at = new Date(now).toISOString();
  return {
    state: 'ready',
    filesDone: 0,
    filesTotal: 0,
    bytesDone: 0,
    bytesTotal: 0,
    startedAt: at,
    finishedAt: at,
    error: null,
  };
}

/**
 * Start the first refresh of `paths` without waiting for it. Progress is published as `index-progress` messages
 * (throttled), and `sessions-changed` goes out every `listEveryMs` while files are being added, so a dashboard
 * fills its list as the index grows instead of waiting for the end.
 */
export function startBackgroundIndex(options: BackgroundIndexOptions): BackgroundIndex {
  const now = options.now ?? Date.now;
  const progressEvery = options.progressEveryMs ?? 200;
  const listEvery = options.listEveryMs ?? 1000;
  let status: IndexStatus = { ...readyStatus(now()), state: 'indexing', finishedAt: null };
  let published: IndexStatus | undefined;
  let lastList = now();
  let listedAt = 0;

  const publishStatus = () => {
    published = status;
    options.publish({ type: 'index-progress', index: status });
  };
  // A steady beat rather than one message per file: the latest status (when it moved) and, while files are
  // being added, "the list changed", even when the import is paused on one big file.
  const beat = () => {
    if (status !== published) publishStatus();
    const t = now();
    if (t - lastList >= listEvery && status.filesDone > listedAt) {
      lastList = t;
      listedAt = status.filesDone;
      options.publish({ type: 'sessions-changed' });
    }
  };
  const timer = setInterval(beat, progressEvery);
  timer.unref?.();

  const onProgress = (progress: RefreshProgress) => {
    status = {
      ...status,
      filesDone: progress.done,
      filesTotal: progress.total,
      bytesDone: progress.bytesDone,
      bytesTotal: progress.bytesTotal,
    };
    options.onProgress?.(progress);
    // the first report (discovery over) goes out at once: the totals are known
    if (progress.done === 0) publishStatus();
  };

  const finish = (error: string | null) => {
    clearInterval(timer);
    status = { ...status, state: 'ready', finishedAt: new Date(now()).toISOString(), error };
    publishStatus();
    options.publish({ type: 'sessions-changed' });
  };

  publishStatus();
  const refreshOptions = options.beforeFile ? { onProgress, beforeFile: options.beforeFile } : { onProgress };
  const done = options.index.refresh(options.paths, refreshOptions).then(
    (report) => {
      finish(null);
      return report;
    },
    (error: unknown) => {
      finish(messageOf(error));
      return undefined;
    },
  );
  return { status: () => status, done };
}

/** Another process's build of the index, as the server follows it (`watchBuildElsewhere`). */
export interface BuildElsewhere {
  /** The status while another process builds the index (`elsewhere: true`); undefined when none does. */
  status(): IndexStatus | undefined;
  close(): void;
}

/**
 * Follow a build another AgentDash process runs on this index (an `agentdash index --rebuild` beside `serve`): what
 * this server answers meanwhile is what that build committed so far, and its watcher sees no transcript change when
 * it ends. While one runs the status says so with its file counts (`index-progress`) and lists are told to read again
 * (`sessions-changed`) as it commits; once more when it ends, so no page keeps the partial list it read.
 */
export function watchBuildElsewhere(
  index: Pick<AgentIndex, 'buildingElsewhere'>,
  publish: (message: LiveMessage) => void,
  everyMs = 1000,
): BuildElsewhere {
  let current: IndexStatus | undefined;
  const check = () => {
    let progress: ReturnType<AgentIndex['buildingElsewhere']>;
    try {
      progress = index.buildingElsewhere();
    } catch {
      return; // busy or closing: the next check tells
    }
    const was = current;
    if (progress === undefined) {
      current = undefined;
      if (was === undefined) return;
      publish({ type: 'index-progress', index: readyStatus() });
    } else {
      const base = was ?? { ...readyStatus(), state: 'indexing' as const, finishedAt: null };
      current = { ...base, filesDone: progress.filesDone, filesTotal: progress.filesTotal, elsewhere: true };
      publish({ type: 'index-progress', index: current });
    }
    publish({ type: 'sessions-changed' });
  };
  const timer = setInterval(check, everyMs);
  timer.unref();
  return { status: () => current, close: () => clearInterval(timer) };
}

/**
 * Whether the index's file is still the one this server opened: deleted, or replaced (moved aside as damaged by
 * another process, which made a new one), the server's connection writes to a file no other process reads. Checked
 * every `everyMs`; `onGone` once, with what to say (the dashboard shows it until the server restarts).
 */
export function watchIndexFile(dbPath: string, onGone: (reason: string) => void, everyMs = 1000): { close(): void } {
  const inodeOf = (): number | undefined => {
    try {
      return statSync(dbPath).ino;
    } catch {
      return undefined;
    }
  };
  const first = dbPath === ':memory:' ? undefined : inodeOf();
  if (first === undefined) return { close: () => undefined };
  const timer = setInterval(() => {
    const now = inodeOf();
    if (now === first) return;
    clearInterval(timer);
    // (deleted, then made again by a process opening the path: another inode; which came first is a race)
    onGone(`its file ${dbPath} was deleted or replaced while this server ran: restart agentdash serve to use it`);
  }, everyMs);
  timer.unref();
  return { close: () => clearInterval(timer) };
}

/** A live refresh's error as the dashboard says it: a damaged index file (the index's rule) is one a restart rebuilds. */
export function refreshErrorText(error: unknown): string {
  const text = messageOf(error);
  return isCorruption(error)
    ? `${text.replace(/\.$/, '')}: the index file is damaged; stop agentdash serve, then ${DAMAGED_INDEX_MEND}`
    : text;
}
