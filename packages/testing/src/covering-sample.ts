/**
 * A smaller sample of a home's sessions that still shows everything the home shows: every kind of record and content
 * its transcripts hold (each `"type"` value written in them), every client version (major.minor) and model they name,
 * sessions with subagents, sessions without their main file and one session over 1 MiB, each in at least one session
 * taken, plus `sampleSessions`'s mix of sizes and projects on a smaller budget. For the corpus-wide equivalence checks
 * whose cost grows with every session they read: each kind is checked in the default run, every session under
 * `AGENTDASH_TEST_FULL=1`.
 */
import { readFileSync } from 'node:fs';
import { bytesOf, fullTests, groupOfListed, type Listed, type Sampled, sampleSessions } from './shared.js';

/** A `"type":"…"` (or `"subtype"`) value as a transcript writes it, with or without a space after the colon. */
const KIND = /"(?:sub)?type": ?"([A-Za-z0-9_.:/-]{1,64})"/g;
/** A client's version as Claude Code (`version`), Codex (`cli_version`, `cliVersion`) and Copilot write it. */
const VERSION = /"(?:cli_?|copilot)?[vV]ersion": ?"(\d+\.\d+)/g;
/** A model id (Gemini's replies name it `modelVersion`). */
const MODEL = /"model(?:Version)?": ?"([A-Za-z0-9_.:/@[\]-]{1,64})"/g;

const filesOf = (group: Sampled) => [...(group.main ? [group.main] : []), ...group.subagents];

/** Sessions over this size are large: one of them (the smallest) is taken, and any a kind only they show needs. */
const LARGE_SESSION_BYTES = 1024 * 1024;

/**
 * The kinds a session shows: its records' and contents' types, the client versions and models it names, how its files
 * are laid out and whether it is large.
 */
export function kindsOf(group: Sampled): Set<string> {
  const kinds = new Set<string>();
  if (bytesOf(group) > LARGE_SESSION_BYTES) kinds.add('(over 1 MiB)');
  if (group.subagents.length > 0) kinds.add('(subagents)');
  if (group.main === undefined) kinds.add('(no main file)');
  for (const file of filesOf(group)) {
    let text: string;
    try {
      text = readFileSync(file.path, 'latin1');
    } catch {
      continue;
    }
    for (const match of text.matchAll(KIND)) kinds.add(match[1] as string);
    for (const match of text.matchAll(VERSION)) kinds.add(`(version ${match[1]})`);
    for (const match of text.matchAll(MODEL)) kinds.add(`(model ${match[1]})`);
  }
  return kinds;
}

/** A plain code-unit order, the same under every locale. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Sessions of a home, the same every run: for each kind the home shows (the rarest first) the smallest session
 * showing it, unless one taken already does; then `sampleSessions(rest, budgetBytes)`. Being over
 * `LARGE_SESSION_BYTES` is a kind of its own, so the smallest large session is read; a kind that only large sessions
 * show is read in the smallest of them. Every session when `fullTests`.
 */
export function coveringSample<T extends Sampled>(
  groups: readonly T[],
  budgetBytes = 256 * 1024,
  kindsOfGroup: (group: T) => Set<string> = kindsOf,
): T[] {
  if (fullTests) return [...groups];
  const bytes = new Map(groups.map((group) => [group, bytesOf(group)] as const));
  const sizeOf = (group: T) => bytes.get(group) ?? 0;
  const kinds = new Map(groups.map((group) => [group, kindsOfGroup(group)] as const));
  const holders = new Map<string, T[]>();
  for (const [group, of] of kinds) for (const kind of of) holders.set(kind, [...(holders.get(kind) ?? []), group]);
  const taken = new Set<T>();
  const shown = new Set<string>();
  const rarestFirst = [...holders].sort(([a, x], [b, y]) => x.length - y.length || byText(a, b));
  for (const [kind, of] of rarestFirst) {
    if (shown.has(kind)) continue;
    // the smallest session showing it, one of at most LARGE_SESSION_BYTES when there is one
    const small = of.filter((group) => sizeOf(group) <= LARGE_SESSION_BYTES);
    const smallest = [...(small.length > 0 ? small : of)].sort((a, b) => sizeOf(a) - sizeOf(b))[0] as T;
    taken.add(smallest);
    for (const k of kinds.get(smallest) ?? []) shown.add(k);
  }
  const rest = sampleSessions(
    groups.filter((group) => !taken.has(group)),
    budgetBytes,
  );
  for (const group of rest) taken.add(group);
  return groups.filter((group) => taken.has(group));
}

/**
 * `coveringSample` over the sessions an index lists; `kindsOfSession`, when given, says what each shows (the kinds a
 * caller read already, so their files are not read again).
 */
export function coveringListed<T extends Listed>(
  listed: readonly T[],
  budgetBytes?: number,
  kindsOfSession?: (session: T) => Set<string>,
): T[] {
  const kinds = kindsOfSession ? (group: Sampled & { session: T }) => kindsOfSession(group.session) : kindsOf;
  return coveringSample(listed.map(groupOfListed), budgetBytes, kinds).map((group) => group.session);
}
