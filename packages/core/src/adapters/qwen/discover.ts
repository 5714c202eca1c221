import type { Dirent } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { DiscoverOptions, Discovery } from '../../io/discover.js';
import { discoverSessionFiles, listSorted } from '../../io/discover-sessions.js';
import type { ListedFolder } from '../../io/listed-folders.js';
import { statOrUndefined } from '../../io/stat.js';
import { isTranscriptEntry } from '../../io/transcript-entry.js';
import type { ParseIssue } from '../../model/issue.js';

/** A session file: `<session id>.jsonl`, the id a UUID (`--session-id` must be one). */
const SESSION_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;
const CHATS = 'chats';
const PROJECTS = 'projects';

/**
 * The Qwen Code folder holding `projects/`: `$QWEN_RUNTIME_DIR` (its "runtime output directory": conversations,
 * logs), else `$QWEN_HOME`, else `~/.qwen` (the client's bundled docs, 0.24.4).
 */
export function defaultQwenHome(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  for (const name of ['QWEN_RUNTIME_DIR', 'QWEN_HOME'] as const) {
    const configured = env[name];
    if (configured !== undefined && configured !== '') return configured;
  }
  return join(homeDir, '.qwen');
}

/** `…/projects/<encoded cwd>/chats/<uuid>.jsonl`. */
export function isQwenSessionFile(path: string): boolean {
  const chats = dirname(path);
  return (
    SESSION_FILE.test(basename(path)) && basename(chats) === CHATS && basename(dirname(dirname(chats))) === PROJECTS
  );
}

/** The session id of a session file: its name without `.jsonl`. */
export function sessionIdOfQwenFile(path: string): string | undefined {
  return isQwenSessionFile(path) ? SESSION_FILE.exec(basename(path))?.[1] : undefined;
}

/**
 * True when a path is Qwen Code's: a session file, a `chats/` folder holding one, a project folder, the
 * `projects/` folder, or a folder holding `projects/` with at least one session (a Qwen home). Claude Code's
 * `projects/<project>/<id>.jsonl` has no `chats/` folder, and Gemini's `chats/` sit under `tmp/`, not `projects/`.
 */
export async function recognizesQwenPath(path: string, folders?: ListedFolder[]): Promise<boolean> {
  const info = statOrUndefined(path);
  if (info === undefined) return false;
  if (info.isFile()) return isQwenSessionFile(resolve(path));
  return findSessionFiles(resolve(path), 1, undefined, folders).length > 0;
}

/**
 * Every session file under the given paths. A session's project folder is `projects/<encoded cwd>` (so the index
 * takes `projects/` as its home); the project path shown is the `cwd` its lines carry.
 */
export async function discoverQwenFiles(paths: readonly string[], _options: DiscoverOptions = {}): Promise<Discovery> {
  return discoverSessionFiles(paths, {
    agent: 'qwen',
    isSessionFile: isQwenSessionFile,
    findUnder: (dir, issues, folders) => findSessionFiles(dir, Number.POSITIVE_INFINITY, issues, folders),
    sessionIdOf: sessionIdOfQwenFile,
  });
}

/**
 * Session files under `dir` (a Qwen home, its `projects/`, a project folder or a `chats/` folder); stops after
 * `limit` files. Each folder listed is noted in `folders` when given.
 */
function findSessionFiles(dir: string, limit: number, issues?: ParseIssue[], folders?: ListedFolder[]): string[] {
  const out: string[] = [];
  const list = (folder: string): Dirent[] => listSorted(folder, issues, folders);
  const chatsFolder = (folder: string): void => {
    for (const entry of list(folder)) {
      if (out.length >= limit) return;
      const path = join(folder, entry.name);
      if (SESSION_FILE.test(entry.name) && isTranscriptEntry(path, entry, issues)) out.push(path);
    }
  };
  const projectFolder = (folder: string, entries: readonly Dirent[]): void => {
    if (entries.some((e) => e.isDirectory() && e.name === CHATS)) chatsFolder(join(folder, CHATS));
  };
  const projectsFolder = (folder: string): void => {
    for (const entry of list(folder)) {
      if (out.length >= limit) return;
      if (!entry.isDirectory()) continue;
      const project = join(folder, entry.name);
      projectFolder(project, list(project));
    }
  };
  const name = basename(dir);
  if (name === PROJECTS) projectsFolder(dir);
  else if (name === CHATS && basename(dirname(dirname(dir))) === PROJECTS) chatsFolder(dir);
  else if (basename(dirname(dir)) === PROJECTS) projectFolder(dir, list(dir));
  else if (list(dir).some((e) => e.isDirectory() && e.name === PROJECTS)) projectsFolder(join(dir, PROJECTS));
  return out;
}
