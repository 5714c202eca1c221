import { type Dirent, readdirSync, type Stats, statSync } from 'node:fs';
import { messageOf } from '../errors.js';
import type { ParseIssue } from '../model/issue.js';

/**
 * A folder whose listing decided which files a discovery found, with its mtime (ms) taken just before it was
 * listed. A file added, removed or renamed in it later changes that mtime: an index that keeps these can tell,
 * with one `stat` per folder, that a new discovery would find the same files (`@agentdash/index`'s warm path).
 */
export type ListedFolder = readonly [path: string, mtimeMs: number];

/**
 * A folder's entries, its mtime noted first in `listed` (when given). Throws as `readdirSync` does (a folder that
 * cannot be listed is not noted).
 */
export function listFolder(dir: string, listed: ListedFolder[] | undefined): Dirent[] {
  return listAfter(dir, listed, listed === undefined ? undefined : statSync(dir, { throwIfNoEntry: false }));
}

/** A folder's entries, noted in `listed` with the mtime of `before` (its stat taken just before). */
function listAfter(dir: string, listed: ListedFolder[] | undefined, before: Stats | undefined): Dirent[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  if (before?.isDirectory()) listed?.push([dir, before.mtimeMs]);
  return entries;
}

/**
 * A folder's entries, its mtime noted first in `listed` (when given); undefined when it cannot be listed. A folder
 * that is missing (gone, or never made: most session folders have no `subagents/`) is no problem; one that exists
 * and cannot be listed (no permission, a link loop) may hide transcripts, so it goes to `issues` (when given): a
 * refresh that met one is incomplete, and its index cannot vouch that nothing changed there.
 */
export function readFolder(
  dir: string,
  listed: ListedFolder[] | undefined,
  issues: ParseIssue[] | undefined,
): Dirent[] | undefined {
  try {
    if (listed === undefined) return listAfter(dir, undefined, undefined);
    const before = statSync(dir, { throwIfNoEntry: false });
    // Known missing from the stat taken for `listed`: no listing (and no exception) needed.
    return before === undefined ? undefined : listAfter(dir, listed, before);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') issues?.push(unreadableFolder(dir, error));
    return undefined;
  }
}

/** The issue of a folder that cannot be listed or looked into. */
export function unreadableFolder(path: string, error: unknown): ParseIssue {
  return {
    code: 'unreadable_file',
    file: path,
    line: 0,
    message: messageOf(error),
  };
}

/**
 * Note a folder's mtime before looking for a name in it without listing it (whether `<folder>/subagents` exists):
 * a child made there later changes it. Nothing is noted for a path that is no folder now.
 */
export function noteFolder(dir: string, listed: ListedFolder[] | undefined): void {
  if (listed === undefined) return;
  try {
    const info = statSync(dir, { throwIfNoEntry: false });
    if (info?.isDirectory()) listed.push([dir, info.mtimeMs]);
  } catch {
    // Cannot be looked at: what is looked for in it is not found now, and nothing vouches for it later.
  }
}

/**
 * The folders of several discoveries, one entry per folder. A folder listed twice keeps its older mtime: a file that
 * came between the two listings may be missing from the first one's files, so the later mtime could vouch for a
 * listing that missed it; the older one makes the next comparison fail instead.
 */
export function mergeListed(parts: readonly (readonly ListedFolder[])[]): ListedFolder[] {
  const byPath = new Map<string, number>();
  for (const part of parts) {
    for (const [path, mtimeMs] of part) {
      const seen = byPath.get(path);
      if (seen === undefined || mtimeMs < seen) byPath.set(path, mtimeMs);
    }
  }
  return [...byPath];
}
