import { accessSync, constants, existsSync, type FSWatcher, statSync, watch } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { AgentIndex } from './agent-index.js';
import type { LiveMessage } from './api-types.js';
import { toSessionRow } from './mapping.js';

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
}

const SESSION_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;
const SESSION_DIR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Session id a changed file belongs to, when its path tells. */
export function sessionIdOfPath(path: string): string | undefined {
  const m = SESSION_FILE.exec(basename(path));
  if (m) return m[1];
  // <session>/subagents/**/agent-*.jsonl
  const parts = path.split(/[\\/]/);
  const at = parts.lastIndexOf('subagents');
  if (at > 0 && SESSION_DIR.test(parts[at - 1] ?? '')) return parts[at - 1];
  return undefined;
}

/**
 * A change worth a refresh: a transcript or meta file, or a folder (session or project folder: removed, moved or
 * made unreadable). Project folder names are encoded paths without dots; other files (editor temp files) are not.
 */
export function isRelevantChange(name: string): boolean {
  const base = basename(name);
  return base.endsWith('.jsonl') || base.endsWith('.json') || SESSION_DIR.test(base) || !base.includes('.');
}

function isReadable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** What to watch for a source path: the `projects/` folder of a Claude home, a folder, or a file's folder. */
function watchTargets(paths: readonly string[]): { dir: string; recursive: boolean; file?: string }[] {
  const out: { dir: string; recursive: boolean; file?: string }[] = [];
  for (const input of paths) {
    const path = resolve(input);
    const info = (() => {
      try {
        return statSync(path);
      } catch {
        return undefined;
      }
    })();
    if (!info) continue;
    if (info.isFile()) out.push({ dir: dirname(path), recursive: false, file: basename(path) });
    else {
      const projects = join(path, 'projects');
      out.push({ dir: existsSync(projects) ? projects : path, recursive: true });
    }
  }
  return out;
}

/**
 * Watch the sources for changes to transcripts (`.jsonl`), subagent metadata (`.json`) and session folders; calls
 * `onFile` with each changed path. (Node 20 sets up a recursive watch by walking the tree, which takes seconds over
 * tens of thousands of files: `startServer` runs this in a worker thread.)
 */
export function watchSources(paths: readonly string[], onFile: (path: string) => void): FSWatcher[] {
  const watchers: FSWatcher[] = [];
  for (const target of watchTargets(paths)) {
    try {
      const w = watch(target.dir, { recursive: target.recursive, persistent: false }, (_event, name) => {
        if (name === null) return;
        const file = String(name);
        if (target.file !== undefined && basename(file) !== target.file) return;
        if (!isRelevantChange(file)) return;
        onFile(target.dir + sep + file);
      });
      w.on('error', () => {});
      watchers.push(w);
    } catch (error) {
      console.error(`agentdash: cannot watch ${target.dir}:`, error instanceof Error ? error.message : error);
    }
  }
  return watchers;
}

export function createLiveEvents(options: WatchOptions): LiveEvents {
  const listeners = new Set<LiveListener>();
  const closers = new Set<() => void>();
  const watchers: FSWatcher[] = [];
  const debounceMs = options.debounceMs ?? 150;
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
  // A reference is `<id>` or `<id>@<folder>`: the session id selects it (and any namesake, compared harmlessly).
  const idsOf = (refs: readonly string[]): string[] => [...new Set(refs.map((ref) => ref.replace(/@.*$/s, '')))];

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
    await options.index.refresh(dirs ?? options.paths);
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
          again = false;
          const batch = [...pending];
          pending = new Set();
          try {
            await doRefresh(batch);
          } catch (error) {
            console.error('agentdash: refresh failed:', error instanceof Error ? error.message : error);
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
      for (const w of watchers) w.close();
      listeners.clear();
      for (const c of [...closers]) c();
      closers.clear();
    },
  };
}
