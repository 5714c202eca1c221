import { type Dirent, readlinkSync, statSync } from 'node:fs';
import { messageOf } from '../errors.js';
import type { ParseIssue } from '../model/issue.js';

/**
 * Whether a folder entry named like a transcript is one to read: a regular file, or a symbolic link to one. Anything
 * else so named (a FIFO, a socket, a device, a directory, a link that loops, dangles or leads to one of those) is
 * never opened, and is reported in `issues` (when given), so that nothing a user took for a transcript is skipped
 * without a word. A regular file costs nothing more than its folder's listing; a link costs one `stat`.
 */
export function isTranscriptEntry(path: string, entry: Dirent, issues: ParseIssue[] | undefined): boolean {
  if (entry.isFile()) return true;
  if (!entry.isSymbolicLink()) {
    issues?.push(notTranscript(path, `${kindOf(entry)}, not a transcript file`));
    return false;
  }
  try {
    const target = statSync(path);
    if (target.isFile()) return true;
    issues?.push(notTranscript(path, `a symbolic link to ${kindOf(target)} (${linkOf(path)}), not a transcript file`));
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const why =
      code === 'ELOOP'
        ? 'a symbolic link that loops'
        : code === 'ENOENT' || code === 'ENOTDIR'
          ? `a dangling symbolic link (to ${linkOf(path)})`
          : `a symbolic link that cannot be followed (${messageOf(error)})`;
    issues?.push(notTranscript(path, why));
  }
  return false;
}

function notTranscript(file: string, what: string): ParseIssue {
  return { code: 'unreadable_file', file, line: 0, message: `skipped: ${what}` };
}

/** What a non-regular entry is, in words. */
function kindOf(entry: Pick<Dirent, 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>) {
  if (entry.isDirectory()) return 'a directory';
  if (entry.isFIFO()) return 'a FIFO (named pipe)';
  if (entry.isSocket()) return 'a socket';
  if (entry.isCharacterDevice()) return 'a character device';
  if (entry.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

function linkOf(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '?';
  }
}
