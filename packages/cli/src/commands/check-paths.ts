import { opendirSync, realpathSync, type Stats, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { NotTranscriptError, PathNotFoundError, UnreadableFileError } from '@agentdash/core/base';

/**
 * What a refresh would reject, rejected before anything is read: before `serve` listens (indexing then runs in the
 * background), before `show FILE` reads the file's folder. A file is read as `index` reads it: by the agent that
 * recognises it (a Gemini session `.json` in its `chats/` folder), else as Claude Code's, which takes `.jsonl` only.
 */
export async function checkPaths(
  paths: readonly string[],
  { archived }: { readonly archived?: (path: string) => Promise<boolean> } = {},
): Promise<void> {
  for (const path of paths) {
    const info = readableStat(path);
    // a path deleted whole whose sessions the archive keeps is read from it (`archived`: whether it does)
    if (info === undefined && archived !== undefined && (await archived(path))) continue;
    if (info === undefined) throw new PathNotFoundError(path);
    // the agents' parsers loaded only for a file that is not Claude Code's `.jsonl` (a warm command loads none)
    if (
      info.isFile() &&
      !path.endsWith('.jsonl') &&
      (await (await import('@agentdash/core')).adaptersForPath(resolve(path))).length === 0
    ) {
      throw new NotTranscriptError(path);
    }
  }
}

/**
 * What every command checks of the paths it is given (a missing one is left to the refresh: its sessions may be in the
 * archive): a path that exists but cannot be read, refused (exit 4), where it would read as a folder without
 * transcripts ("No sessions.", exit 0): a folder it may not list, a FIFO or a device, a folder named `*.jsonl`, a
 * symbolic link loop.
 */
export function checkReadable(paths: readonly string[]): void {
  for (const path of paths) readableStat(path);
}

/** The path's stats when it is a file or a folder that can be listed; undefined when it does not exist. */
function readableStat(path: string): Stats | undefined {
  let info: Stats | undefined;
  try {
    info = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    throw new UnreadableFileError(path, error);
  }
  if (info === undefined) return undefined;
  if (info.isDirectory() && path.endsWith('.jsonl')) {
    throw new UnreadableFileError(path, new Error('is a directory, not a transcript file'));
  }
  if (!info.isFile() && !info.isDirectory()) {
    throw new UnreadableFileError(path, new Error(`is ${specialKind(info)}, not a transcript file or folder`));
  }
  if (info.isDirectory()) {
    try {
      opendirSync(path).closeSync();
    } catch (error) {
      throw new UnreadableFileError(path, error);
    }
  }
  return info;
}

function specialKind(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'neither a file nor a folder';
}

/**
 * The paths given, each folder once: of two paths one of which is, or is under, the other once symbolic links are
 * followed (a home named beside a link to it, or to one of its project folders), the outer one is kept, the first
 * given of equal ones; else their sessions were listed twice, once under each name (and `show ID` found two). A path
 * that does not resolve (gone, its sessions in the archive) is taken as it is written.
 */
export function oncePerFolder(paths: readonly string[]): string[] {
  const within = (inner: string, outer: string) =>
    inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : `${outer}${sep}`);
  let kept: { readonly path: string; readonly real: string }[] = [];
  for (const path of paths) {
    let real: string;
    try {
      real = realpathSync.native(resolve(path));
    } catch {
      real = resolve(path);
    }
    if (kept.some((k) => within(real, k.real))) continue;
    kept = [...kept.filter((k) => !within(k.real, real)), { path, real }];
  }
  return kept.map((k) => k.path);
}
