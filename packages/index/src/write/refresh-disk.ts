/** What a refresh asks the disk directly, beside discovery: whether paths can be read, or only looked at. */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { PathNotFoundError, UnreadableFileError } from '@agentdash/core';
import type Database from 'better-sqlite3';
import { hasArchivedFilesUnder } from '../read/archived-under.js';

/** Why the file cannot be opened for reading now, or undefined when it can. */
export function readError(path: string): Error | undefined {
  try {
    accessSync(path, constants.R_OK);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** True when `stat` fails for lack of permission (EACCES, EPERM), not because the path is gone. */
export function isHiddenByPermissions(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return code === 'EACCES' || code === 'EPERM';
  }
}

/** The refreshed paths, resolved; a folder named like a transcript file is refused (`UnreadableFileError`). */
export function resolvedRoots(paths: readonly string[]): string[] {
  const roots = paths.map((p) => resolve(p));
  for (const root of roots) {
    const info = (() => {
      try {
        return statSync(root, { throwIfNoEntry: false });
      } catch (error) {
        throw new UnreadableFileError(root, error);
      }
    })();
    if (info?.isDirectory() && root.endsWith('.jsonl')) {
      throw new UnreadableFileError(root, new Error('is a directory, not a transcript file'));
    }
  }
  return roots;
}

/**
 * Refuse a path that is neither on disk nor in the archive (a typo), as discovery does, when a refresh answers without
 * discovering (another process builds the index): else the command would answer "No sessions." for it.
 * @throws PathNotFoundError
 */
export function requireKnownRoots(db: Database.Database, paths: readonly string[]): void {
  const missing = paths.find((path) => !existsSync(path) && !hasArchivedFilesUnder(db, resolve(path)));
  if (missing !== undefined) throw new PathNotFoundError(missing);
}
