/**
 * What follows a refresh of the paths named on the command line (`Context.refreshed`): a named folder where no agent's
 * transcript was found said so, and the named paths that gave the index transcripts kept in it (`namedRoots`).
 * @module
 */
import { resolve } from 'node:path';
import { agentLabels } from '@agentdash/core/base';
import type { AgentIndex, RefreshReport } from '@agentdash/index';
import type { FolderWithoutTranscripts } from '@agentdash/server/api-types';
import { isSamples, LAYOUTS, recognisedByAnAgent } from './default-homes.js';

/** The paths as the user named them (not the default homes), and where a warning is said. */
export interface NamedPaths {
  readonly named: readonly string[];
  readonly note: (message: string) => void;
}

/** The index as these ask it: the kept roots through the light connection when there is one (else undefined). */
export interface IndexLookup {
  readonly namedRoots: () => readonly string[] | undefined;
  readonly openIndex: () => Promise<AgentIndex>;
}

/**
 * Keep the paths named on the command line in the index once they gave it transcripts (`namedRoots`): a later
 * command without paths, on a machine whose homes hold nothing, reads them again (not the samples). Asked through
 * the light connection; the full index is opened only to add a path not kept yet. A refresh cut short (no report):
 * the paths are kept by what the index holds under them so far.
 */
export async function keepNamedRoots(
  { named }: NamedPaths,
  paths: readonly string[],
  report: RefreshReport | undefined,
  lookup: IndexLookup,
): Promise<void> {
  if (report?.files === 0) return;
  const mine = paths
    .filter((p) => named.includes(p))
    .map((p) => resolve(p))
    .filter((p) => !isSamples(p));
  if (mine.length === 0) return;
  const known = lookup.namedRoots();
  const fresh = mine.filter((p) => known === undefined || !known.includes(p));
  if (fresh.length === 0) return;
  const index = await lookup.openIndex();
  // Each path by what the index holds under it (the report counts all the paths together: ~/Downloads named beside
  // a backup gave it no transcript).
  const holding = fresh.filter((p) => index.listSessions({ paths: [p], limit: 1 }).length > 0);
  try {
    if (holding.length > 0) index.addNamedRoots(holding);
  } catch {
    // Another process holds the write lock: kept by a later command, this one's answer is not worth failing for.
  }
}

/**
 * The folders named on the command line where no agent's transcript was found and that no agent takes for its home
 * (say ~/Downloads, or a typo'd path that exists), each said on stderr: else "No sessions." reads as if it were an
 * agent's home with nothing in it yet. Decided from the refresh's report; a folder is looked at only when that
 * report cannot tell (no file at all, or several paths), and the index asked only when several paths were.
 */
export async function foldersWithoutTranscripts(
  { named, note }: NamedPaths,
  paths: readonly string[],
  report: RefreshReport,
  lookup: IndexLookup,
): Promise<FolderWithoutTranscripts[]> {
  const found: FolderWithoutTranscripts[] = [];
  for (const path of report.files > 0 && paths.length === 1 ? [] : paths) {
    if (!named.includes(path) || (await recognisedByAnAgent(path))) continue;
    if (report.files > 0 && (await lookup.openIndex()).listSessions({ paths: [path], limit: 1 }).length > 0) continue;
    const message = `${path} holds no ${agentLabels()} transcripts (looked for ${LAYOUTS})`;
    note(`warning: ${message}`);
    found.push({ path, message });
  }
  return found;
}
