import { closeSync, openSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';
import { PathNotFoundError, UnreadableFileError } from '@agentdash/core';
import { UnknownSessionError } from '@agentdash/index';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

/**
 * SESSION is a session id, a unique prefix of one, or a transcript file path. Refreshes the index over the
 * relevant paths and returns the session id.
 */
export async function resolveSession(ctx: Context, arg: string | undefined, rest: readonly string[]): Promise<string> {
  if (arg === undefined || arg === '')
    throw new UsageError('missing SESSION (a session id, a unique prefix, or a file)');
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
    const paths = info.isFile() ? [projectFolderOf(file)] : [file];
    await ctx.refresh(paths);
    const id = ctx.openIndex().sessionIdOfFile(file);
    if (id === undefined) throw new UnknownSessionError(arg);
    return id;
  }
  if (looksLikePath && info === undefined) throw new PathNotFoundError(arg);
  const paths = ctx.resolvePaths(rest);
  await ctx.refresh(paths);
  const summary = ctx.openIndex().getSession(arg);
  if (summary === undefined) throw new UnknownSessionError(arg);
  return summary.id;
}

/** The folder to index for a transcript file: its project folder (2.1 subagent files sit in `<session>/subagents/`). */
export function projectFolderOf(file: string): string {
  const parts = file.split(sep);
  const idx = parts.lastIndexOf('subagents');
  if (basename(file).startsWith('agent-') && idx > 1) return parts.slice(0, idx - 1).join(sep);
  return dirname(file);
}

/** `stat` of a path named on the command line: undefined when it does not exist; unreadable (a link loop, no
 * permission on a folder on the way) is an unreadable file. */
function statOf(arg: string): Stats | undefined {
  try {
    return statSync(arg, { throwIfNoEntry: false });
  } catch (error) {
    throw new UnreadableFileError(arg, error);
  }
}
