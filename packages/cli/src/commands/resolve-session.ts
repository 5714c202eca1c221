import { closeSync, openSync, type Stats, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { PathNotFoundError, projectDirOfFile, UnreadableFileError } from '@agentdash/core';
import { UnknownSessionError } from '@agentdash/index';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

/**
 * SESSION is a session id, a unique prefix of one, `<id>@<project folder>` (when several project folders hold a
 * session of that id), or a transcript file path. Refreshes the index over the relevant paths and returns a
 * reference that names the session alone.
 */
export async function resolveSession(ctx: Context, arg: string | undefined, rest: readonly string[]): Promise<string> {
  if (arg === undefined || arg === '')
    throw new UsageError('missing SESSION (a session id, a unique prefix, <id>@<folder>, or a file)');
  const looksLikePath = arg.includes('/') || arg.includes('\\') || arg.endsWith('.jsonl');
  const info = statOf(arg);
  if (info !== undefined && (info.isFile() || arg.endsWith('.jsonl'))) {
    const file = resolve(arg);
    // A file named on the command line that cannot be read is said so (exit 4), not "no session matches".
    if (info.isFile()) {
      try {
        closeSync(openSync(file, 'r'));
      } catch (error) {
        throw new UnreadableFileError(arg, error);
      }
    }
    // Index the file's project folder, so that a session's main and subagent files come together.
    const paths = info.isFile() ? [projectDirOfFile(file)] : [file];
    await ctx.refresh(paths);
    const id = (await ctx.openIndex()).sessionIdOfFile(file);
    if (id === undefined) throw new UnknownSessionError(arg);
    return id;
  }
  // `<project folder>/<id>` (also accepted) looks like a path but is not one on disk.
  if (info === undefined && arg.endsWith('.jsonl')) throw new PathNotFoundError(arg);
  const paths = await ctx.resolvePaths(rest);
  await ctx.refresh(paths);
  // Among the sessions under PATH first (one database can hold several homes with the same ids), then anywhere.
  const index = await ctx.openIndex();
  const summary = index.getSession(arg, { paths }) ?? index.getSession(arg);
  if (summary === undefined) {
    if (looksLikePath && info === undefined) throw new PathNotFoundError(arg);
    throw new UnknownSessionError(arg);
  }
  return summary.ref;
}

/** `stat` of a path named on the command line: undefined when it does not exist; unreadable (a link loop, no
 * permission on a folder on the way) is an unreadable file. */
function statOf(arg: string): Stats | undefined {
  try {
    return statSync(arg, { throwIfNoEntry: false });
  } catch (error) {
    // Not a possible path (a NUL byte in a session id): not a file at all.
    if ((error as { code?: unknown } | null)?.code === 'ERR_INVALID_ARG_VALUE') return undefined;
    throw new UnreadableFileError(arg, error);
  }
}
