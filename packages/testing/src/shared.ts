/**
 * Where the tests find the repository and the ground-truth data beside it (`../shared`: corpus, wild, corpus-agents,
 * wild-agents, corpus-otel), and how much of it a run reads: `AGENTDASH_TEST_FULL=1` runs the long suites whole,
 * while `npm test` checks the same properties over a fixed, representative sample.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const sharedDir = resolve(repoRoot, '../shared');

const dirsIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : []);
const foldersIn = (dir: string) => dirsIn(dir).filter((path) => statSync(path).isDirectory());

/** The homes bundled in the repository: the CLI's samples and every agent fixture folder of core's tests. */
export const bundledHomes: readonly string[] = [
  resolve(repoRoot, 'packages/cli/samples/claude-home'),
  ...foldersIn(resolve(repoRoot, 'packages/core/test/fixtures')),
];

/** Every agent home of `../shared` that is present (empty without it): wild, corpus and the other agents'. */
export const sharedHomes: readonly string[] = [
  join(sharedDir, 'wild', 'claude-home'),
  ...dirsIn(join(sharedDir, 'corpus')).map((version) => join(version, 'claude-home')),
  join(sharedDir, 'corpus-agents', 'codex'),
  join(sharedDir, 'corpus-agents', 'gemini'),
  join(sharedDir, 'wild-agents', 'codex'),
  ...foldersIn(join(sharedDir, 'wild-agents', 'gemini')),
  join(sharedDir, 'wild-agents', 'other', 'copilot-cli'),
].filter((home) => existsSync(home));

/** `AGENTDASH_TEST_FULL=1`: every session of every home, the long fuzz, the 620 MiB file. */
export const fullTests = process.env.AGENTDASH_TEST_FULL === '1';

/** A session as the sample sees it: a name that stays the same from run to run, and its files. */
export interface Sampled {
  readonly main?: { readonly path: string } | undefined;
  readonly subagents: readonly { readonly path: string }[];
  readonly sessionId: string;
}

/** The bytes of a session's files (a file gone meanwhile counts none). */
export const bytesOf = (group: Sampled) =>
  [group.main, ...group.subagents].reduce(
    (sum, file) => sum + (file ? (statSync(file.path, { throwIfNoEntry: false })?.size ?? 0) : 0),
    0,
  );
const keyOf = (group: Sampled) =>
  createHash('sha256')
    .update(group.main?.path ?? group.subagents[0]?.path ?? group.sessionId)
    .digest('hex');

/**
 * A fixed sample of a home's sessions up to `budgetBytes` of transcript: sessions are taken in an order that mixes
 * sizes and projects (a hash of the path, the same every run) while they fit the budget, so the sample holds small
 * and large sessions of every kind rather than the smallest ones; never none of a home that has sessions. Every session
 * when `fullTests`.
 */
export function sampleSessions<T extends Sampled>(groups: readonly T[], budgetBytes = 2 * 1024 * 1024): T[] {
  if (fullTests) return [...groups];
  let left = budgetBytes;
  const taken = new Set<T>();
  for (const group of [...groups].sort((a, b) => keyOf(a).localeCompare(keyOf(b)))) {
    const bytes = bytesOf(group);
    if (bytes > left) continue;
    taken.add(group);
    left -= bytes;
  }
  // A home whose every session is over the budget still gives its smallest one.
  if (taken.size === 0 && groups.length > 0) taken.add([...groups].sort((a, b) => bytesOf(a) - bytesOf(b))[0] as T);
  return groups.filter((group) => taken.has(group));
}

/** A session as the index lists it (`SessionSummary`): its key and its files. */
export interface Listed {
  readonly key: string;
  readonly files: readonly { readonly path: string; readonly role: 'main' | 'subagent' }[];
}

/** A listed session's files as the samples see them, the session kept beside them. */
export function groupOfListed<T extends Listed>(session: T) {
  return {
    session,
    sessionId: session.key,
    main: session.files.find((file) => file.role === 'main'),
    subagents: session.files.filter((file) => file.role === 'subagent'),
  };
}

/** `sampleSessions` over the sessions an index lists. */
export function sampleListed<T extends Listed>(listed: readonly T[], budgetBytes?: number): T[] {
  return sampleSessions(listed.map(groupOfListed), budgetBytes).map((group) => group.session);
}
