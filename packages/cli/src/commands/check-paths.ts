import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { adaptersForPath, NotTranscriptError, PathNotFoundError, UnreadableFileError } from '@agentdash/core';

/**
 * What a refresh would reject, rejected before anything is read: before `serve` listens (indexing then runs in the
 * background), before `show FILE` reads the file's folder. A file is read as `index` reads it: by the agent that
 * recognises it (a Gemini session `.json` in its `chats/` folder), else as Claude Code's, which takes `.jsonl` only.
 */
export async function checkPaths(paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const info = statSync(path, { throwIfNoEntry: false });
    if (info === undefined) throw new PathNotFoundError(path);
    if (info.isFile() && !path.endsWith('.jsonl') && (await adaptersForPath(resolve(path))).length === 0) {
      throw new NotTranscriptError(path);
    }
    if (info.isDirectory() && path.endsWith('.jsonl')) {
      throw new UnreadableFileError(path, new Error('is a directory, not a transcript file'));
    }
  }
}
