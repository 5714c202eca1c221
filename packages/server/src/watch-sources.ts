/**
 * Watching the sources for changes: what a change is about and whether it matters. Node built-ins only, so the watch
 * worker (watch-worker.ts) starts without loading the parsers.
 */
import { accessSync, constants, existsSync, type FSWatcher, statSync, watch } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';

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

export function isReadable(path: string): boolean {
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
    if (!info) {
      // gone (a home deleted whole, served from the archive): watched once it is back (`watchTarget`'s looks)
      if (/\.jsonl?$/.test(path)) out.push({ dir: dirname(path), recursive: false, file: basename(path) });
      else out.push({ dir: path, recursive: true });
      continue;
    }
    if (info.isFile()) out.push({ dir: dirname(path), recursive: false, file: basename(path) });
    else {
      const projects = join(path, 'projects');
      out.push({ dir: existsSync(projects) ? projects : path, recursive: true });
    }
  }
  return out;
}

/** How often a watched folder is looked at: gone, made again, or moved away and another put in its place. */
export const REWATCH_MS = 2_000;

/** A watch that can be stopped. */
export interface SourceWatch {
  close(): void;
}

/**
 * Watch the sources for changes to transcripts (`.jsonl`), subagent metadata (`.json`) and session folders; calls
 * `onFile` with each changed path. (Node 20 sets up a recursive watch by walking the tree, which takes seconds over
 * tens of thousands of files: `startServer` runs this in a worker thread.)
 *
 * A watch follows its folder's inode: a `projects/` folder removed and made again (a reinstall, a restore, a
 * `mv projects old && mkdir projects`) would never be heard from again, and a watch that fails stops. Every
 * `REWATCH_MS` each folder is looked at; one gone is let go, one back or replaced is watched again, and `onFile` is
 * told of the folder so that a refresh reads what changed meanwhile.
 */
export function watchSources(
  paths: readonly string[],
  onFile: (path: string) => void,
  rewatchMs: number = REWATCH_MS,
): SourceWatch[] {
  const watches = watchTargets(paths).map((target) => watchTarget(target, onFile, rewatchMs));
  return watches;
}

/** An inode and device: which folder a path names now. */
function identityOf(dir: string): string | undefined {
  try {
    const info = statSync(dir);
    return info.isDirectory() ? `${info.dev}:${info.ino}` : undefined;
  } catch {
    return undefined;
  }
}

function watchTarget(
  target: { dir: string; recursive: boolean; file?: string },
  onFile: (path: string) => void,
  rewatchMs: number,
): SourceWatch {
  let watcher: FSWatcher | undefined;
  let identity: string | undefined;
  let failed = false;
  let reported = false;
  const start = () => {
    identity = identityOf(target.dir);
    failed = false;
    if (identity === undefined) return;
    try {
      watcher = watch(target.dir, { recursive: target.recursive, persistent: false }, (_event, name) => {
        if (name === null) return;
        const file = String(name);
        if (target.file !== undefined && basename(file) !== target.file) return;
        if (!isRelevantChange(file)) return;
        onFile(target.dir + sep + file);
      });
      // a watch that fails (its folder removed under it) is set up again by the next look
      watcher.on('error', () => {
        failed = true;
      });
      reported = false;
    } catch (error) {
      watcher = undefined;
      if (!reported) {
        console.error(`agentdash: cannot watch ${target.dir}:`, error instanceof Error ? error.message : error);
        reported = true;
      }
    }
  };
  const stop = () => {
    watcher?.close();
    watcher = undefined;
  };
  start();
  // A watch that failed is set up again once for its folder (a failure that comes back, the system's limit of
  // watches, is left alone: each try walks the whole tree); a folder gone, back or replaced is watched again. Either
  // is told as a change of the folder, whose refresh reads what the watch missed.
  let retried = false;
  const look = setInterval(() => {
    const now = identityOf(target.dir);
    const moved = now !== identity;
    const retry = !moved && failed && !retried;
    if (!moved && !retry) return;
    stop();
    retried = retry;
    start();
    onFile(target.dir);
  }, rewatchMs);
  look.unref();
  return {
    close() {
      clearInterval(look);
      stop();
    },
  };
}
