import { resolve } from 'node:path';
import { type DiscoveredFile, type DiscoverOptions, type Discovery, discoverFiles } from '../io/discover.js';
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
        ? [await discoverFiles([input], options)]
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

/** Each agent's default homes that exist on this machine (env and home dir passed in: core has no `process`). */
export function existingDefaultHomes(
  env: Readonly<Record<string, string | undefined>>,
  homeDir: string,
  adapters: readonly AgentAdapter[] = agentAdapters,
): { readonly agent: AgentAdapter; readonly home: string }[] {
  return existingHomes(env, homeDir, adapters);
}
