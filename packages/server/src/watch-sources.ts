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
