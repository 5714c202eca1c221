import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  DISCOVERED_AGENT,
  type DiscoveredFile,
  type DiscoverOptions,
  type Discovery,
  discoverFiles,
} from '../io/discover.js';
import { type ListedFolder, mergeListed } from '../io/listed-folders.js';
import type { ParseIssue } from '../model/issue.js';
import type { AgentAdapter } from './adapter.js';
import { adaptersForPath, agentAdapters } from './adapters.js';
import { existingHomes } from './homes.js';

/**
 * Every transcript file under the given paths, whichever agent wrote it: each path goes to the adapters that
 * recognise it (by layout); a path none recognises is read as Claude Code's, which reports what is wrong with it.
 * @throws PathNotFoundError when a path does not exist; NotTranscriptError for a file that is no transcript.
 */
export async function discoverAll(paths: readonly string[], options: DiscoverOptions = {}): Promise<Discovery> {
  const files = new Map<string, DiscoveredFile>();
  const issues: ParseIssue[] = [];
  const folders: (readonly ListedFolder[])[] = [];
  for (const input of paths) {
    const recognised: ListedFolder[] = [];
    const adapters = await adaptersForPath(resolve(input), recognised);
    // A path no adapter recognises yet (a Codex or Gemini home before its first session, one whose sessions were all
    // deleted): the first transcript written anywhere the recognisers looked makes one discover it, so those folders
    // are watched too. (Not for a recognised path: another agent's transcripts appearing inside a Claude home are not
    // looked for, and watching `~/.claude`'s other folders, which change while Claude Code runs, would cost every
    // command a full refresh then.)
    if (adapters.length === 0) folders.push(recognised);
    const found =
      adapters.length === 0
        ? [await discoverFiles([input], options), ...(await discoverHomesUnder(resolve(input), options, recognised))]
        : await Promise.all(adapters.map((adapter) => adapter.discover(resolve(input), options)));
    for (const discovery of found) {
      for (const file of discovery.files) if (!files.has(file.path)) files.set(file.path, file);
      issues.push(...discovery.issues);
      folders.push(discovery.folders);
    }
  }
  return {
    files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    issues,
    folders: mergeListed(folders),
  };
}

/** Folders never looked into for homes: a repository's dependencies and its git store. */
const NOT_HOMES: ReadonlySet<string> = new Set(['node_modules', '.git']);

/** At most this many folders are asked whether they are homes (a folder of thousands is no backup of homes). */
const MAX_FOLDERS = 256;

/** How the issue of a folder looked into only in part begins (`isPartlySearched`). */
const PARTLY_SEARCHED = 'partly skipped: ';

/**
 * Whether an issue says a folder was looked into for homes only in part. Unlike an unreadable file, it does not change
 * while the folder does not: it is said, but it does not make every command look at every transcript again.
 */
export function isPartlySearched(issue: ParseIssue): boolean {
  return issue.code === 'unreadable_file' && issue.message.startsWith(PARTLY_SEARCHED);
}

/**
 * The other agents' homes among a folder's folders, or theirs when none is one (a backup of several machines'
 * `.gemini`, a folder of such folders), as Claude Code's discovery reads a folder of Claude homes: each discovered by
 * the adapters that recognise it. Claude Code's are left to its own discovery, which the caller runs on the folder.
 * What the recognisers looked at is noted in `folders` (a home made there later changes their mtimes).
 */
async function discoverHomesUnder(
  dir: string,
  options: DiscoverOptions,
  folders: ListedFolder[],
): Promise<Discovery[]> {
  const others = agentAdapters.filter((a) => a.id !== DISCOVERED_AGENT);
  let asked = 0;
  let cut = false;
  const homesIn = async (paths: readonly string[]) => {
    const homes: { readonly path: string; readonly adapters: readonly AgentAdapter[] }[] = [];
    for (const path of paths) {
      if (asked++ >= MAX_FOLDERS) {
        cut = true;
        break;
      }
      const adapters = await adaptersForPath(path, folders, others);
      if (adapters.length > 0) homes.push({ path, adapters });
    }
    return homes;
  };
  const children = subfolders(dir);
  const homes = await homesIn(children);
  // Two levels down only when the first holds none (as for Claude Code's homes).
  if (homes.length === 0) {
    for (const child of children) {
      if (asked >= MAX_FOLDERS) {
        cut = true;
        break;
      }
      homes.push(...(await homesIn(subfolders(child))));
    }
  }
  const found: Discovery[] = [];
  // Said, not passed over in silence: a home among them is named directly to be read.
  if (cut) {
    found.push({
      files: [],
      folders: [],
      issues: [
        {
          code: 'unreadable_file',
          file: dir,
          line: 0,
          message: `${PARTLY_SEARCHED}only ${MAX_FOLDERS} of its folders were looked into for other agents' homes; name a home inside it to read it`,
        },
      ],
    });
  }
  for (const home of homes) {
    for (const adapter of home.adapters) found.push(await adapter.discover(home.path, options));
  }
  return found;
}

/** A folder's folders (none when it cannot be listed), but those never holding homes. */
function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !NOT_HOMES.has(e.name))
      .map((e) => join(dir, e.name))
      .sort();
  } catch {
    return [];
  }
}

/** Each agent's default homes that exist on this machine (env and home dir passed in: core has no `process`). */
export function existingDefaultHomes(
  env: Readonly<Record<string, string | undefined>>,
  homeDir: string,
  adapters: readonly AgentAdapter[] = agentAdapters,
): { readonly agent: AgentAdapter; readonly home: string }[] {
  return existingHomes(env, homeDir, adapters);
}
