/** What a refresh asks the disk directly, beside discovery: whether paths can be read, or only looked at. */
import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UnreadableFileError } from '@agentdash/core';

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
