/**
 * The few numbers of a file's stat that tell whether it changed (size, mtime, inode) or can be read (owner, mode),
 * without a `Stats` object: a warm command stats every file it knows, once per run.
 * @module
 */
import { statSync } from 'node:fs';
import { toNamespacedPath } from 'node:path';

/** What `fileStat` reads of a path. `mtimeMs` is exactly `Stats.mtimeMs`. */
export interface FileStat {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly uid: number;
  readonly mode: number;
}

/** The fs binding's stat as Node 20 calls it: the numbers in a shared array, read before the next call. */
type BindingStat = (path: string, bigint: false, req: undefined, throwIfNoEntry: boolean) => Float64Array | undefined;

/**
 * Node 20's `statSync` builds four `Date` objects per call (later versions build them when first read), which over
 * thousands of files costs more than the system calls. There, and only there, the numbers come from the fs binding
 * `statSync` itself calls; unless `--pending-deprecation` is on (`process.binding` would then warn). Undefined where
 * it is not used.
 */
function bindingStat(): BindingStat | undefined {
  if (process.versions.node.split('.')[0] !== '20') return undefined;
  const pending =
    process.execArgv.includes('--pending-deprecation') ||
    (process.env.NODE_OPTIONS ?? '').includes('--pending-deprecation') ||
    process.env.NODE_PENDING_DEPRECATION === '1';
  // Deprecated and left out of Node's types, but present in every Node 20.
  const binding = (process as { binding?: (name: string) => unknown }).binding;
  if (pending || typeof binding !== 'function') return undefined;
  try {
    const stat = (binding.call(process, 'fs') as { stat?: unknown }).stat;
    return typeof stat === 'function' ? (stat as BindingStat) : undefined;
  } catch {
    return undefined;
  }
}

/** The binding's stat while it agrees with `statSync` (checked on the first file found); undefined once it did not. */
let fast: BindingStat | undefined = bindingStat();
let checked = false;

function ofStats(path: string): FileStat | undefined {
  const info = statSync(path, { throwIfNoEntry: false });
  return info && { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino, uid: info.uid, mode: info.mode };
}

function ofBinding(stat: BindingStat, path: string): FileStat | undefined {
  // as statSync passes it (a long Windows path gets its \\?\ prefix)
  const v = stat(toNamespacedPath(path), false, undefined, false);
  if (v === undefined) return undefined;
  // The order of Node's `getStatsFromBinding`; mtimeMs as its `msFromTimeSpec` computes it.
  return {
    size: v[8] ?? 0,
    mtimeMs: (v[12] ?? 0) * 1e3 + (v[13] ?? 0) / 1e6,
    ino: v[7] ?? 0,
    uid: v[3] ?? 0,
    mode: v[1] ?? 0,
  };
}

const same = (a: FileStat | undefined, b: FileStat | undefined): boolean =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.ino === b.ino &&
    a.uid === b.uid &&
    a.mode === b.mode);

/**
 * `path`'s size, mtime, inode, owner and mode; undefined when it does not exist. Throws as `statSync` does when it
 * cannot be looked at.
 */
export function fileStat(path: string): FileStat | undefined {
  const stat = fast;
  if (stat === undefined) return ofStats(path);
  let mine: FileStat | undefined;
  try {
    mine = ofBinding(stat, path);
  } catch {
    // an error other than a missing file: statSync's own error
    return ofStats(path);
  }
  if (!checked && mine !== undefined) {
    checked = true;
    const theirs = ofStats(path);
    if (!same(mine, theirs)) {
      fast = undefined;
      return theirs;
    }
  }
  return mine;
}

/** Whether `fileStat` reads the binding's numbers in this process (else `statSync`'s): for its tests. */
export function fileStatFromBinding(): boolean {
  return fast !== undefined;
}
