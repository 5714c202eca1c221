import { resolve } from 'node:path';
import {
  DISCOVERED_AGENT,
  type DiscoveredFile,
  type DiscoverOptions,
  type Discovery,
  discoverFiles,
  isClaudeHome,
} from '../io/discover.js';
import { recognizesByLayout } from '../io/headless.js';
import { foldersToAsk, partlySearched } from '../io/home-search.js';
import { type ListedFolder, mergeListed, noteFolder } from '../io/listed-folders.js';
import { isUnder } from '../io/paths.js';
import type { ParseIssue } from '../model/issue.js';
import type { AgentAdapter } from './adapter.js';
import { adaptersForPath, agentAdapters } from './adapters.js';
import { existingHomes } from './homes.js';

/**
 * Every transcript file under the given paths, whichever agent wrote it: each path goes to the adapters that
 * recognise it (by layout, or by the headless outputs it is or holds: `io/headless.ts`); a path none recognises is
 * read as Claude Code's, which reports what is wrong with it.
 * @throws PathNotFoundError when a path does not exist; NotTranscriptError for a file that is no transcript.
 */
export async function discoverAll(paths: readonly string[], options: DiscoverOptions = {}): Promise<Discovery> {
  const files = new Map<string, DiscoveredFile>();
  const issues: ParseIssue[] = [];
  const said = new Set<string>();
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
        ? await discoverUnrecognised(resolve(input), options, recognised)
        : await Promise.all(adapters.map((adapter) => adapter.discover(resolve(input), options)));
    for (const discovery of found) {
      // A headless output found by its agent wins over Claude Code's discovery of a folder holding both (`.jsonl`).
      for (const file of discovery.files) if (!files.has(file.path) || file.headless) files.set(file.path, file);
      // What two discoveries say of one folder (two adapters reading one home) is said once.
      for (const issue of discovery.issues) {
        const key = `${issue.code}\u0000${issue.file}\u0000${issue.line}\u0000${issue.message}`;
        if (!said.has(key)) issues.push(issue);
        said.add(key);
      }
      folders.push(discovery.folders);
    }
  }
  return {
    files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    issues,
    folders: mergeListed(folders),
  };
}

/**
 * A folder no adapter recognises: the other agents' homes below it, and Claude Code's discovery of the rest. Another
 * agent's home, and a folder on the way down to one, is no Claude project folder: its own `.jsonl` files (Codex's
 * `history.jsonl`, a manifest's, a log's) are no sessions, as Claude Code's discovery treats a folder that holds its
 * own homes.
 */
async function discoverUnrecognised(
  dir: string,
  options: DiscoverOptions,
  folders: ListedFolder[],
): Promise<Discovery[]> {
  const { homes, claudeHomes, found } = await discoverHomesUnder(dir, options, folders);
  const holdsHome = (folder: string) => homes.some((home) => isUnder(home, folder));
  // Claude Code's discovery reads the Claude homes this search found; it does not search the folder again.
  return [
    await discoverFiles([dir], { ...options, ...(homes.length > 0 ? { holdsHome } : {}), claudeHomes }),
    ...found,
  ];
}

/**
 * Every agent's homes below a folder no adapter recognises (a backup of several machines' `.gemini`, a folder of
 * versions of one agent's home), in one search (`foldersToAsk`), which looks into no home: the other agents' homes,
 * each discovered by the adapters that recognise it, and Claude Code's (`claudeHomes`), left to its discovery, which
 * the caller runs on them. Each folder asked is noted in `folders`, with what the recognisers looked at (a home made
 * there later changes their mtimes).
 */
async function discoverHomesUnder(
  dir: string,
  options: DiscoverOptions,
  folders: ListedFolder[],
): Promise<{
  readonly homes: readonly string[];
  readonly claudeHomes: readonly string[];
  readonly found: readonly Discovery[];
}> {
  const others = agentAdapters.filter((a) => a.id !== DISCOVERED_AGENT);
  const homes: { readonly path: string; readonly adapters: readonly AgentAdapter[] }[] = [];
  const claudeHomes: string[] = [];
  const search = foldersToAsk(dir);
  let step = search.next();
  while (step.done !== true) {
    noteFolder(step.value, folders);
    const adapters = await adaptersForPath(step.value, folders, others);
    if (adapters.length > 0) homes.push({ path: step.value, adapters });
    // A Claude home (a folder with `projects/`, a Qwen home too, as Claude's discovery always took them) is its
    // discovery's; no home is looked into for more. A folder that only holds headless output (a CI job's artifacts)
    // is no home: the search goes on below it.
    const claude = isClaudeHome(step.value);
    if (claude) claudeHomes.push(step.value);
    const folder = step.value;
    const home = await someAsync(adapters, (a) => recognizesByLayout(a.recognizes, folder, folders));
    step = search.next(home || claude);
  }
  const found: Discovery[] = step.value ? [{ files: [], folders: [], issues: [partlySearched(dir)] }] : [];
  for (const home of homes) {
    for (const adapter of home.adapters) found.push(await adapter.discover(home.path, options));
  }
  return { homes: homes.map((h) => h.path), claudeHomes, found };
}

/** Each agent's default homes that exist on this machine (env and home dir passed in: core has no `process`). */
export function existingDefaultHomes(
  env: Readonly<Record<string, string | undefined>>,
  homeDir: string,
  adapters: readonly AgentAdapter[] = agentAdapters,
): { readonly agent: AgentAdapter; readonly home: string }[] {
  return existingHomes(env, homeDir, adapters);
}

/** Whether `test` holds for some item, asked in turn until one does. */
async function someAsync<T>(items: readonly T[], test: (item: T) => Promise<boolean>): Promise<boolean> {
  for (const item of items) if (await test(item)) return true;
  return false;
}
