import type { Dirent } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { DiscoverOptions, Discovery } from '../../io/discover.js';
import { discoverSessionFiles, listSorted } from '../../io/discover-sessions.js';
import type { ListedFolder } from '../../io/listed-folders.js';
import { statOrUndefined } from '../../io/stat.js';
import { isTranscriptEntry } from '../../io/transcript-entry.js';
import type { ParseIssue } from '../../model/issue.js';

/** The folder of one session: its id (a UUID). */
const SESSION_FOLDER = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EVENTS_FILE = 'events.jsonl';
const STATE_FOLDER = 'session-state';

/** The Copilot CLI home: `$COPILOT_HOME`, else `~/.copilot`. */
export function defaultCopilotHome(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  const configured = env.COPILOT_HOME;
  return configured !== undefined && configured !== '' ? configured : join(homeDir, '.copilot');
}

/** `…/session-state/<id>/events.jsonl` (or `<id>/events.jsonl` copied out of it). */
export function isEventsFile(path: string): boolean {
  return basename(path) === EVENTS_FILE && SESSION_FOLDER.test(basename(dirname(path)));
}

/** The session id of an events file: its folder's name. */
export function sessionIdOfEventsFile(path: string): string | undefined {
  return isEventsFile(path) ? basename(dirname(path)) : undefined;
}

/**
 * True when a path is Copilot CLI's: an events file, a session folder holding one, a `session-state/` folder, or a
 * folder holding `session-state/` with at least one session (a Copilot home).
 */
export async function recognizesCopilotPath(path: string, folders?: ListedFolder[]): Promise<boolean> {
  const info = statOrUndefined(path);
  if (info === undefined) return false;
  if (info.isFile()) return isEventsFile(path);
  return findEventsFiles(resolve(path), 1, undefined, folders).length > 0;
}

/**
 * Every events file under the given paths. A session's project folder is its `session-state/` folder, whose parent
 * is the Copilot home (the index takes a file's home as its project folder's parent). The project path shown is the
 * `cwd` of the session's `session.start`.
 */
export async function discoverCopilotFiles(
  paths: readonly string[],
  _options: DiscoverOptions = {},
): Promise<Discovery> {
  return discoverSessionFiles(paths, {
    agent: 'copilot',
    isSessionFile: isEventsFile,
    findUnder: (dir, issues, folders) => findEventsFiles(dir, Number.POSITIVE_INFINITY, issues, folders),
    sessionIdOf: sessionIdOfEventsFile,
  });
}

/**
 * Events files under `dir`, which is a Copilot home (holding `session-state/`), a `session-state/` folder, or one
 * session's folder; stops after `limit` files. Each folder listed is noted in `folders` when given.
 */
function findEventsFiles(dir: string, limit: number, issues?: ParseIssue[], folders?: ListedFolder[]): string[] {
  const out: string[] = [];
  const list = (folder: string): Dirent[] => listSorted(folder, issues, folders);
  const sessionFolder = (folder: string, entries: readonly Dirent[]): void => {
    const entry = entries.find((e) => e.name === EVENTS_FILE);
    const path = join(folder, EVENTS_FILE);
    if (entry !== undefined && isTranscriptEntry(path, entry, issues)) out.push(path);
  };
  const stateFolder = (folder: string): void => {
    for (const entry of list(folder)) {
      if (out.length >= limit) return;
      if (entry.isDirectory() && SESSION_FOLDER.test(entry.name)) {
        const session = join(folder, entry.name);
        sessionFolder(session, list(session));
      }
    }
  };
  if (basename(dir) === STATE_FOLDER) stateFolder(dir);
  else if (SESSION_FOLDER.test(basename(dir))) sessionFolder(dir, list(dir));
  else if (list(dir).some((e) => e.isDirectory() && e.name === STATE_FOLDER)) stateFolder(join(dir, STATE_FOLDER));
  return out;
}
