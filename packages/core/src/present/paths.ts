/**
 * Paths as a session's calls wrote them, shown and compared: relative to the session's folder when inside it, and
 * joined to it when relative. POSIX and Windows separators alike (a transcript may come from either). Browser-safe.
 * @module
 */
import { isDrivePath } from '../model/drive-path.js';

const SEPARATOR = /[\\/]+/;

/**
 * Whether `path` is absolute: `/…`, `\…`, a drive's `C:\…` (a POSIX or a Windows path, on any machine), or in the
 * home folder as a shell names it (`~`, `~/…`): never joined to a session's folder, the home being no folder a
 * transcript names.
 */
export function isAbsolutePath(path: string): boolean {
  return /^(?:[\\/]|~(?:[\\/]|$))/.test(path) || isDrivePath(path);
}

/** The separator a path writes: a backslash for one that has no slash and has backslashes. */
function separatorOf(path: string): '/' | '\\' {
  return path.includes('\\') && !path.includes('/') ? '\\' : '/';
}

/**
 * `path` with its `.` and `..` parts taken out (`/a/b/../c` is `/a/c`), or joined to `cwd` first when relative and a
 * folder is known; as written otherwise. A path on a Windows drive is written with backslashes only (a patch's
 * `src/a.cs` joined to `C:\proj` and PowerShell's `src\a.cs` are one file). So one file written two ways is one path.
 */
export function joinedPath(path: string, cwd?: string): string {
  const joined = isAbsolutePath(path) || cwd === undefined || cwd === '' ? path : `${cwd}${separatorOf(cwd)}${path}`;
  const full = isDrivePath(joined) ? joined.replace(/\//g, '\\') : joined;
  if (!isAbsolutePath(full) || !/(?:^|[\\/])\.\.?(?:[\\/]|$)/.test(full)) return full;
  const sep = separatorOf(full);
  const [root = '', ...parts] = full.split(SEPARATOR);
  const kept: string[] = [];
  for (const part of parts) {
    if (part === '.' || part === '') continue;
    if (part === '..') kept.pop();
    else kept.push(part);
  }
  return `${root}${sep}${kept.join(sep)}`;
}

/** `path` relative to the folder `cwd` when inside it (not the folder itself), else as written. */
export function relativePath(path: string, cwd: string | undefined): string {
  if (cwd === undefined || cwd === '') return path;
  const base = cwd.replace(/[\\/]+$/, '');
  const rest = path.slice(base.length);
  return path.startsWith(base) && /^[\\/]./.test(rest) ? rest.slice(1) : path;
}
