import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { LIVE_WINDOW_MS, type SessionFilter } from '@agentdash/index';
import type { AgentIndex } from './agent-index.js';
import type { LiveMessage } from './api-types.js';
import { HeldFiles } from './held-files.js';
import { toSessionRow } from './mapping.js';
import { isReadable, type SourceWatch, sessionIdOfPath, watchSources } from './watch-sources.js';

export { isRelevantChange, sessionIdOfPath, watchSources } from './watch-sources.js';

export type LiveListener = (message: LiveMessage) => void;

/** Live change notifications: the SSE route and the session cache subscribe. */
export interface LiveEvents {
  /** Listen for changes; `onClose` is called when the events close (server shutdown), so streams can end. */
  subscribe(listener: LiveListener, onClose?: () => void): () => void;
  /** Send a message to every subscriber (e.g. index progress). */
  publish(message: LiveMessage): void;
  /** Refresh the index now and notify (also what the watcher calls after a debounce). */
  refresh(changedFiles?: readonly string[]): Promise<void>;
  close(): void;
}

export interface WatchOptions {
  readonly index: AgentIndex;
  readonly paths: readonly string[];
  /** Debounce between the first change and the refresh. Default 150 ms. */
  readonly debounceMs?: number;
  /** Start file watchers (default true). */
  readonly watch?: boolean;
  /**
   * Least time between the starts of two refreshes (default 1000 ms). Each refresh that finds a change makes every
   * cached list, search and statistics answer stale, and every open dashboard asks again: a session appended to
   * every few milliseconds would otherwise keep the query worker recomputing them all (issue 36, item 9).
   */
  readonly minIntervalMs?: number;
  /** Told after each refresh the watcher starts: undefined when it worked, else what it threw. */
  readonly onRefreshed?: ((error: unknown) => void) | undefined;
  /**
   * How often the sessions last seen live are looked at again (default 15 s): one stops being live when nothing
   * came for a while (`LIVE_WINDOW_MS`), and no file change says so.
   */
  readonly liveCheckMs?: number;
}

export function createLiveEvents(options: WatchOptions): LiveEvents {
  const listeners = new Set<LiveListener>();
  const closers = new Set<() => void>();
  const watchers: SourceWatch[] = [];
  const debounceMs = options.debounceMs ?? 150;
  const minIntervalMs = options.minIntervalMs ?? 1000;
  let lastStart = Number.NEGATIVE_INFINITY;
  let spacing: { timer: NodeJS.Timeout; done: () => void } | undefined;
  /** Wait until `minIntervalMs` has passed since the last refresh started (at once when closed). */
  const spaced = () =>
    new Promise<void>((done) => {
      const wait = lastStart + minIntervalMs - Date.now();
      if (wait <= 0 || closed) return done();
      const timer = setTimeout(() => {
        spacing = undefined;
        done();
      }, wait);
      timer.unref();
      spacing = { timer, done };
    });
  let timer: NodeJS.Timeout | undefined;
  let pending = new Set<string>();
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const emit = (message: LiveMessage) => {
    for (const l of listeners) {
      try {
        l(message);
      } catch {
        // a broken listener must not stop the others
      }
    }
  };

  /** What the list shows of the sessions a filter selects, by reference: a change here is a change to the list. */
  const snapshot = (within: { paths?: readonly string[]; ids?: readonly string[] }): Map<string, string> => {
    const map = new Map<string, string>();
    for (const raw of options.index.listSessions(within)) {
      const r = toSessionRow(raw);
      map.set(r.id, `${r.endedAt}|${r.messages}|${r.toolCalls}|${r.errors}|${r.isLive}|${r.archived}`);
    }
    return map;
  };

  /**
   * The project folders of changed files the index already knows, so a refresh reads only those folders;
   * undefined when a full refresh is needed (nothing named, or a new file or folder appeared).
   */
  const projectDirsOf = (changed: readonly string[]): string[] | undefined => {
    if (changed.length === 0) return undefined;
    const dirs = new Set<string>();
    for (const file of changed) {
      const id = options.index.sessionIdOfFile(file);
      const group = id === undefined ? undefined : options.index.sessionFiles(id);
      const known = group && [group.main, ...group.subagents].find((f) => f?.path === resolve(file));
      // A project folder removed or moved away cannot be refreshed on its own: a full refresh drops its files.
      if (!known || !existsSync(known.projectDir)) return undefined;
      dirs.add(known.projectDir);
    }
    return [...dirs];
  };

  /** The references of the sessions the changed files belong to now. */
  const refsOf = (changed: readonly string[]): string[] =>
    changed.flatMap((file) => options.index.sessionIdOfFile(file) ?? sessionIdOfPath(file) ?? []);
  // A reference is `<id>`, `<id>@<folder>`, or a session's key `<project folder>/<id>` when another home has a
  // folder of that name with that session too (a backup indexed beside the live home): the plain session id selects
  // it (and any namesake, compared harmlessly). Session ids hold neither `@` nor a slash.
  const idsOf = (refs: readonly string[]): string[] => [
    ...new Set(refs.map((ref) => ref.replace(/^.*[\\/]/s, '').replace(/@.*$/s, ''))),
  ];

  /**
   * Refreshes and tells subscribers what changed. Incremental: only the sessions of the changed files are compared
   * before and after (never the whole list, which over 50,000 sessions costs seconds of this thread per refresh).
   * A full refresh (a new file or folder, a removal, nothing named) always tells that the list changed.
   */
  const doRefresh = async (changed: readonly string[]) => {
    const dirs = projectDirsOf(changed);
    const refsBefore = dirs ? refsOf(changed) : [];
    const within = (refs: readonly string[]) => ({ paths: dirs ?? [], ids: idsOf(refs) });
    const before = dirs ? snapshot(within(refsBefore)) : new Map<string, string>();
    // Only the folders named are looked at: a file removed elsewhere is a change of its own, which refreshes its folder
    // (or everything, when its folder went too).
    await options.index.refresh(dirs ?? options.paths, dirs ? { onlyUnder: true } : {});
    const refsAfter = refsOf(changed);
    const after = dirs ? snapshot(within([...refsBefore, ...refsAfter])) : new Map<string, string>();
    const updated = new Set<string>();
    for (const id of refsAfter) {
      // A permission change leaves size and mtime alone, so the index sees nothing new; a session with a file that
      // can no longer be read is still reported as updated, so its cached view is dropped and says why it is empty.
      if (!dirs || after.has(id)) updated.add(id);
    }
    for (const file of changed) {
      const id = options.index.sessionIdOfFile(file);
      if (id && !isReadable(file)) updated.add(id);
    }
    let listChanged = !dirs || before.size !== after.size;
    for (const [id, sig] of after) {
      const old = before.get(id);
      if (old === undefined) listChanged = true;
      else if (old !== sig) {
        updated.add(id);
        listChanged = true;
      }
    }
    for (const sessionId of updated) emit({ type: 'session-updated', sessionId });
    if (listChanged || updated.size > 0) emit({ type: 'sessions-changed' });
    seeLive(dirs ? [...updated] : undefined);
    held.seen(changed);
  };

  /** Files held back while being written, read again once they settle (held-files.ts). */
  const held = new HeldFiles(
    (paths) => options.index.heldWhileWriting(paths),
    (files) => void refresh(files),
  );

  /**
   * The sessions shown live, by reference, until they are not: an agent that stops writing changes no file, so
   * without a look at them again every open dashboard would show them live, and their calls running, for ever.
   */
  const shownLive = new Set<string>();
  const liveCheckMs = options.liveCheckMs ?? 15_000;
  let liveTimer: NodeJS.Timeout | undefined;
  const liveRefsOf = (filter: SessionFilter): string[] =>
    options.index.listSessions(filter).flatMap((raw) => {
      const row = toSessionRow(raw);
      return row.isLive ? [row.id] : [];
    });
  const lookLater = () => {
    if (shownLive.size === 0 || liveTimer !== undefined || closed) return;
    liveTimer = setTimeout(lookAgain, liveCheckMs);
    liveTimer.unref();
  };
  /** Note which sessions of these references (undefined: of the whole scope, those that ended lately) are live. */
  const seeLive = (refs: readonly string[] | undefined) => {
    if (refs?.length === 0) return;
    const since = new Date(Date.now() - LIVE_WINDOW_MS - liveCheckMs).toISOString();
    const live =
      refs === undefined
        ? liveRefsOf({ paths: options.paths, since })
        : liveRefsOf({ ids: idsOf(refs) }).filter((ref) => refs.includes(ref));
    for (const ref of live) shownLive.add(ref);
    lookLater();
  };
  const lookAgain = () => {
    liveTimer = undefined;
    if (closed) return;
    const still = new Set(liveRefsOf({ ids: idsOf([...shownLive]) }));
    const ended = [...shownLive].filter((ref) => !still.has(ref));
    for (const ref of ended) {
      shownLive.delete(ref);
      emit({ type: 'session-updated', sessionId: ref });
    }
    if (ended.length > 0) emit({ type: 'sessions-changed' });
    lookLater();
  };

  const refresh = async (changedFiles: readonly string[] = []): Promise<void> => {
    for (const f of changedFiles) pending.add(f);
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          await spaced();
          if (closed) break;
          again = false;
          lastStart = Date.now();
          const batch = [...pending];
          pending = new Set();
          try {
            await doRefresh(batch);
            options.onRefreshed?.(undefined);
          } catch (error) {
            console.error('agentdash: refresh failed:', error instanceof Error ? error.message : error);
            options.onRefreshed?.(error ?? new Error('refresh failed'));
          }
        } while (again && !closed);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const schedule = (file: string) => {
    pending.add(file);
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void refresh();
    }, debounceMs);
  };

  if (options.watch !== false) {
    watchers.push(
      ...watchSources(options.paths, (file) => {
        if (!closed) schedule(file);
      }),
    );
  }

  return {
    subscribe(listener, onClose) {
      listeners.add(listener);
      if (onClose) closers.add(onClose);
      return () => {
        listeners.delete(listener);
        if (onClose) closers.delete(onClose);
      };
    },
    publish: emit,
    refresh,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (liveTimer) clearTimeout(liveTimer);
      held.close();
      if (spacing) {
        clearTimeout(spacing.timer);
        spacing.done();
      }
      for (const w of watchers) w.close();
      listeners.clear();
      for (const c of [...closers]) c();
      closers.clear();
    },
  };
}
