import type { Dirent } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { messageOf } from '../errors.js';
import type { AgentId } from '../model/agent.js';
import type { ParseIssue } from '../model/issue.js';
import type { DiscoveredFile, Discovery } from './discover.js';
import { type ListedFolder, listFolder } from './listed-folders.js';
import { statOrUndefined } from './stat.js';

/** Where an agent that writes one main file per session, two folders below its project folder, keeps them. */
export interface SessionFileLayout {
  readonly agent: AgentId;
  /** Whether a file given by path is one of the agent's session files. */
  isSessionFile(path: string): boolean;
  /** The session files under a folder; unreadable folders reported in `issues`, listed ones noted in `folders`. */
  findUnder(dir: string, issues: ParseIssue[], folders: ListedFolder[]): string[];
  sessionIdOf(file: string): string | undefined;
}

/**
 * Every session file under the given paths, as main files whose project folder is the folder two levels up (Copilot
 * CLI's `session-state/<id>/events.jsonl`, Qwen Code's `projects/<cwd>/chats/<id>.jsonl`), sorted by path.
 */
export function discoverSessionFiles(paths: readonly string[], layout: SessionFileLayout): Discovery {
  const issues: ParseIssue[] = [];
  const folders: ListedFolder[] = [];
  const files = new Map<string, DiscoveredFile>();
  for (const input of paths) {
    const path = resolve(input);
    const info = statOrUndefined(path);
    if (info === undefined) continue;
    const found = info.isFile() ? (layout.isSessionFile(path) ? [path] : []) : layout.findUnder(path, issues, folders);
    for (const file of found) {
      const stat = statOrUndefined(file);
      if (stat === undefined) continue;
      files.set(file, {
        path: file,
        projectDir: dirname(dirname(file)),
        role: 'main',
        sessionId: layout.sessionIdOf(file),
        agentId: undefined,
        metaPath: undefined,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        ino: stat.ino,
        agent: layout.agent,
      });
    }
  }
  return {
    files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    issues,
    folders,
  };
}

/** A folder's entries by name; a folder that cannot be listed is reported in `issues` (when given) and reads empty. */
export function listSorted(folder: string, issues?: ParseIssue[], folders?: ListedFolder[]): Dirent[] {
  try {
    return listFolder(folder, folders).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    const message = messageOf(error);
    issues?.push({ code: 'unreadable_file', file: folder, line: 0, message });
    return [];
  }
}
