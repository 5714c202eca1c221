import { type Stats, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { PathNotFoundError, UnreadableFileError } from '../errors.js';

/** A path's stats; undefined when it is missing or cannot be looked at. Synchronous: discovery stats many files. */
export function statOrUndefined(path: string): Stats | undefined {
  try {
    // A missing file (most subagents have no .meta.json) answers undefined without building an exception.
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * The stats of a path discovery starts from (`input` as given, `path` resolved).
 * @throws PathNotFoundError when it does not exist; UnreadableFileError when it exists but cannot be looked at (a
 * link loop, a folder without permission on the way).
 */
export async function statRoot(input: string, path: string): Promise<Stats> {
  const info = await stat(path).catch((error: unknown) => {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ENOENT' || code === 'ERR_INVALID_ARG_VALUE') return undefined;
    throw new UnreadableFileError(input, error);
  });
  if (info === undefined) throw new PathNotFoundError(input);
  return info;
}
