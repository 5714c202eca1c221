import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ParseIssue } from '../model/issue.js';

/**
 * How a folder that is no agent's home is searched for homes, for every agent alike (Claude Code's `projects/` homes,
 * the other agents' by their adapters): a backup of several machines (`<machine>/<user>/.gemini`), a folder of
 * versions (`<agent>/<version>/<agent>-home/.gemini`). Folders are asked level by level, down to `HOME_DEPTH` levels
 * below the folder; a home is not looked into further; at most `MAX_FOLDERS` are asked, and a search cut short says
 * so (`partlySearched`).
 */
export const HOME_DEPTH = 6;

/** At most this many folders are asked whether they are homes (a folder of thousands is no backup of homes). */
export const MAX_FOLDERS = 256;

/** Folders never looked into for homes: a repository's dependencies, its git store, a session's subagents. */
const NOT_HOMES: ReadonlySet<string> = new Set(['node_modules', '.git', 'subagents']);

/** A Claude Code project folder (an encoded path, with a leading `-`) or session folder (a session id). */
const CLAUDE_FOLDER = /^(?:-|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$)/i;

/**
 * Whether a folder's name is that of a Claude Code project or session folder: never a home, and a busy project holds
 * hundreds of session folders (the search would spend its budget on them and say so). Other walks skip them too.
 */
export function isClaudeProjectOrSessionFolder(name: string): boolean {
  return CLAUDE_FOLDER.test(name);
}

/** How the issue of a folder looked into only in part begins (`isPartlySearched`). */
const PARTLY_SEARCHED = 'partly skipped: ';

/**
 * Whether an issue says a folder was looked into for homes only in part. Unlike an unreadable file, it does not change
 * while the folder does not: it is said, but it does not make every command look at every transcript again.
 */
export function isPartlySearched(issue: ParseIssue): boolean {
  return issue.code === 'unreadable_file' && issue.message.startsWith(PARTLY_SEARCHED);
}

/** The issue of a folder whose search for homes stopped at `MAX_FOLDERS`: said, never passed over in silence. */
export function partlySearched(dir: string): ParseIssue {
  return {
    code: 'unreadable_file',
    file: dir,
    line: 0,
    message: `${PARTLY_SEARCHED}only ${MAX_FOLDERS} of its folders were looked into for agents' homes; name a home inside it to read it`,
  };
}

/**
 * The folders below `dir` to ask whether they are homes, breadth first, `depth` levels down: the caller answers each
 * with `next(isHome)`, and a home's folders are not asked. Sync, so that a synchronous and an asynchronous question
 * share it. Ends early (its `return` is `true`) when `MAX_FOLDERS` have been asked.
 */
export function* foldersToAsk(dir: string, depth = HOME_DEPTH): Generator<string, boolean, boolean | undefined> {
  let asked = 0;
  let level = [dir];
  for (let down = 0; down < depth && level.length > 0; down++) {
    const next: string[] = [];
    for (const parent of level) {
      for (const child of subfolders(parent)) {
        if (asked++ >= MAX_FOLDERS) return true;
        const isHome = yield child;
        if (isHome !== true) next.push(child);
      }
    }
    level = next;
  }
  return false;
}

/** A folder's folders, sorted (none when it cannot be listed), but those never holding homes or being one. */
function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !NOT_HOMES.has(e.name) && !isClaudeProjectOrSessionFolder(e.name))
      .map((e) => join(dir, e.name))
      .sort();
  } catch {
    return [];
  }
}
