import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { PathNotFoundError } from '@agentdash/core';
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
  const info = statSync(arg, { throwIfNoEntry: false });
  if (info !== undefined && (info.isFile() || arg.endsWith('.jsonl'))) {
    const file = resolve(arg);
    // A main session file: index its folder too, so its subagent files come along.
    const paths = info.isFile() && !basename(file).startsWith('agent-') ? [dirname(file)] : [file];
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
