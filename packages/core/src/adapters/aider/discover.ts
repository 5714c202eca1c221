import type { Dirent } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { messageOf } from '../../errors.js';
import type { DiscoveredFile, DiscoverOptions, Discovery } from '../../io/discover.js';
import { type ListedFolder, listFolder } from '../../io/listed-folders.js';
import { statOrUndefined } from '../../io/stat.js';
import type { ParseIssue } from '../../model/issue.js';

/** The file Aider keeps in each repository it ran in (its `--chat-history-file` default). */
export const AIDER_HISTORY = '.aider.chat.history.md';

/**
 * Aider writes its history into each repository, not into a home of its own: the folders to look in are listed in
 * `$AGENTDASH_AIDER_PROJECTS` (separated as PATH is: `:`, `;` on Windows), each a repository or a folder of
 * repositories. None by default.
 */
export function defaultAiderHomes(env: Readonly<Record<string, string | undefined>>, _homeDir: string): string[] {
  const listed = env.AGENTDASH_AIDER_PROJECTS;
  if (listed === undefined || listed.trim() === '') return [];
  return listed
    .split(delimiter)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/**
 * The history files in the project folders other agents' sessions ran in (their cwd): Aider writes into the
 * repository, so a folder another agent worked in may hold one. Only looked at (a stat each), never written.
 */
export function aiderHistoriesIn(projectPaths: readonly string[]): string[] {
  const found = new Set<string>();
  for (const project of projectPaths) {
    if (!isAbsolute(project)) continue;
    const path = join(project, AIDER_HISTORY);
    if (statOrUndefined(path)?.isFile()) found.add(path);
  }
  return [...found].sort();
}

/**
 * A history file's session id: `aider-` and its repository folder's name (one file per repository, its runs
 * appended). Two repositories of the same name are two sessions of the same id in two project folders.
 */
export function aiderSessionId(path: string): string {
  return `aider-${basename(dirname(resolve(path)))}`;
}

/** History files in a folder and in its child folders (a repository, or a folder of repositories). */
function findHistories(dir: string, limit: number, issues?: ParseIssue[], folders?: ListedFolder[]): string[] {
  const out: string[] = [];
  const list = (folder: string): Dirent[] => {
    try {
      return listFolder(folder, folders);
    } catch (error) {
      issues?.push({
        code: 'unreadable_file',
        file: folder,
        line: 0,
        message: messageOf(error),
      });
      return [];
    }
  };
  const entries = list(dir);
  if (entries.some((e) => e.isFile() && e.name === AIDER_HISTORY)) out.push(join(dir, AIDER_HISTORY));
  for (const entry of entries) {
    if (out.length >= limit) break;
    if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const child = join(dir, entry.name);
    // Looked into: a history created there later changes the folder's mtime.
    const before = statOrUndefined(child);
    if (before !== undefined) folders?.push([child, before.mtimeMs]);
    if (statOrUndefined(join(child, AIDER_HISTORY))?.isFile()) out.push(join(child, AIDER_HISTORY));
  }
  return out.sort();
}

/** True for a history file, a repository holding one, or a folder whose child folders hold one. */
export async function recognizesAiderPath(path: string, folders?: ListedFolder[]): Promise<boolean> {
  const full = resolve(path);
  const info = statOrUndefined(full);
  if (info === undefined) return false;
  if (info.isFile()) return basename(full) === AIDER_HISTORY;
  return findHistories(full, 1, undefined, folders).length > 0;
}

/** Every history file under a root (the file itself, a repository, or a folder of repositories). */
export async function discoverAiderFiles(root: string, _options: DiscoverOptions = {}): Promise<Discovery> {
  const full = resolve(root);
  const issues: ParseIssue[] = [];
  const folders: ListedFolder[] = [];
  const info = statOrUndefined(full);
  const paths =
    info === undefined
      ? []
      : info.isFile()
        ? basename(full) === AIDER_HISTORY
          ? [full]
          : []
        : findHistories(full, Number.POSITIVE_INFINITY, issues, folders);
  const files: DiscoveredFile[] = [];
  for (const path of paths) {
    const stat = statOrUndefined(path);
    if (stat === undefined) continue;
    files.push({
      path,
      agent: 'aider',
      projectDir: dirname(path),
      role: 'main',
      sessionId: aiderSessionId(path),
      agentId: undefined,
      metaPath: undefined,
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      ino: stat.ino,
    });
  }
  return { files, issues, folders };
}
