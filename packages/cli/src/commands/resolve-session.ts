import { closeSync, openSync, type Stats, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { discoverAll, groupSessions, PathNotFoundError, projectDirOfFile, UnreadableFileError } from '@agentdash/core';
import { AmbiguousSessionError, UnknownSessionError } from '@agentdash/index';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { checkPaths, checkReadable } from './check-paths.js';

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
  // a FIFO or a device named as SESSION is said so (exit 4), as `sessions` says it, not "no session matches"
  if (info !== undefined && !info.isFile() && !info.isDirectory()) checkReadable([arg]);
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
    // A file no agent reads is refused before its folder is read (a folder that holds agents' homes is all indexed).
    await checkPaths([arg]);
    // Index the file's project folder, so that a session's main and subagent files come together.
    const paths = info.isFile() ? [projectDirOfFile(file)] : [file];
    await ctx.refresh(paths);
    let id = (await ctx.openIndex()).sessionIdOfFile(file);
    // A file that folder's reading does not take for a session (a folder that holds agents' homes: its loose
    // `.jsonl` files are none) is read by itself, as `sessions FILE` reads it: shown as that lists it.
    if (id === undefined && info.isFile()) {
      await ctx.refresh([file]);
      id = (await ctx.openIndex()).sessionIdOfFile(file);
    }
    if (id === undefined) throw new UnknownSessionError(arg);
    return id;
  }
  if (info?.isDirectory()) {
    const found = await sessionOfFolder(ctx, arg);
    if (found !== undefined) return found;
  }
  // `<project folder>/<id>` (also accepted) looks like a path but is not one on disk.
  if (info === undefined && arg.endsWith('.jsonl')) throw new PathNotFoundError(arg);
  if (rest.length === 0) {
    const known = await indexedSession(ctx, arg);
    if (known !== undefined) return known;
  }
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

/**
 * A session the index holds already, named without PATH: brought up to date by reading its own project folder again
 * (when it is still on disk), not every default home. A `--db` of other sessions (a backup indexed on purpose) is
 * so never given the bundled samples, which the default homes fall back to when there are none. Undefined when the
 * index does not know the reference yet.
 */
async function indexedSession(ctx: Context, arg: string): Promise<string | undefined> {
  const index = await ctx.openIndex();
  let known: ReturnType<typeof index.getSession>;
  try {
    known = index.getSession(arg);
  } catch (error) {
    // Several sessions answer to it (one id in two homes): the default homes' one is wanted, as without this.
    if (error instanceof AmbiguousSessionError) return undefined;
    throw error;
  }
  if (known === undefined) return undefined;
  const folder = index.sessionFiles(known.ref)?.projectDir;
  if (folder !== undefined && statOf(folder)?.isDirectory()) {
    await ctx.refresh([folder]);
    return (await ctx.openIndex()).getSession(known.ref)?.ref ?? known.ref;
  }
  return known.ref;
}

/**
 * A folder given as SESSION: the one session it holds (a Copilot CLI session's folder, a Claude Code session's
 * folder of subagents), read from that folder alone. A folder of several sessions (a home, a project folder: PATH
 * given where SESSION belongs) is a usage error, said before anything is indexed. A folder of none is looked up as
 * the session reference it may also be (`<project folder>/<id>`, where Claude Code 2.1 keeps a session's
 * `tool-results/`): undefined.
 */
async function sessionOfFolder(ctx: Context, arg: string): Promise<string | undefined> {
  const dir = resolve(arg);
  const groups = groupSessions((await discoverAll([dir])).files);
  // A Claude Code session's folder is read with its project folder: the session it names, among that folder's.
  const named = groups.filter((g) => g.sessionId === basename(dir));
  const one = groups.length === 1 ? groups[0] : named.length === 1 ? named[0] : undefined;
  const file = one?.main?.path ?? one?.subagents[0]?.path;
  if (file !== undefined) {
    await ctx.refresh([dir]);
    const id = (await ctx.openIndex()).sessionIdOfFile(file);
    if (id !== undefined) return id;
  }
  if (groups.length === 0) return undefined;
  throw new UsageError(
    `${arg} is a folder of ${groups.length} sessions, not one; SESSION names one of them (agentdash sessions ${arg} lists them)`,
  );
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
