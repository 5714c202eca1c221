/**
 * A smaller sample of a home's sessions that still shows everything the home shows: every kind of record and content
 * its transcripts hold (each `"type"` value written in them), sessions with subagents and sessions without their main
 * file, each in at least one session taken, plus `sampleSessions`'s mix of sizes and projects on a smaller budget. For
 * the corpus-wide equivalence checks whose cost grows with every session they read: each kind is checked in the
 * default run, every session under `AGENTDASH_TEST_FULL=1`.
 */
import { readFileSync, statSync } from 'node:fs';
import { fullTests, type Listed, type Sampled, sampleSessions } from './shared.js';

/** A `"type":"…"` (or `"subtype"`) value as a transcript writes it, with or without a space after the colon. */
const KIND = /"(?:sub)?type": ?"([A-Za-z0-9_.:/-]{1,64})"/g;

const filesOf = (group: Sampled) => [...(group.main ? [group.main] : []), ...group.subagents];

/** The kinds a session shows: its records' and contents' types, and how its files are laid out. */
export function kindsOf(group: Sampled): Set<string> {
  const kinds = new Set<string>();
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
  }
  return kinds;
}

const bytesOf = (group: Sampled) =>
  filesOf(group).reduce((sum, file) => sum + (statSync(file.path, { throwIfNoEntry: false })?.size ?? 0), 0);

/** The largest session taken for a kind: a kind only larger sessions show is checked in the full run. */
const MAX_SESSION_BYTES = 1024 * 1024;

/**
 * Sessions of a home, the same every run: for each kind the home shows (the rarest first) the smallest session
 * showing it, unless one taken already does; then `sampleSessions(rest, budgetBytes)`. Only sessions of at most
 * `MAX_SESSION_BYTES` are taken for a kind (the byte-budgeted sample never took larger ones either); every session
 * when `fullTests`.
 */
export function coveringSample<T extends Sampled>(groups: readonly T[], budgetBytes = 256 * 1024): T[] {
  if (fullTests) return [...groups];
  const bytes = new Map(groups.map((group) => [group, bytesOf(group)] as const));
  const small = groups.filter((group) => (bytes.get(group) ?? 0) <= MAX_SESSION_BYTES);
  const kinds = new Map(small.map((group) => [group, kindsOf(group)] as const));
  const holders = new Map<string, T[]>();
  for (const [group, of] of kinds) for (const kind of of) holders.set(kind, [...(holders.get(kind) ?? []), group]);
  const taken = new Set<T>();
  const shown = new Set<string>();
  const rarestFirst = [...holders].sort(([a, x], [b, y]) => x.length - y.length || a.localeCompare(b));
  for (const [kind, of] of rarestFirst) {
    if (shown.has(kind)) continue;
    const smallest = [...of].sort((a, b) => (bytes.get(a) ?? 0) - (bytes.get(b) ?? 0))[0] as T;
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

/** `coveringSample` over the sessions an index lists. */
export function coveringListed<T extends Listed>(listed: readonly T[], budgetBytes?: number): T[] {
  const groups = listed.map((session) => ({
    session,
    sessionId: session.key,
    main: session.files.find((file) => file.role === 'main'),
    subagents: session.files.filter((file) => file.role === 'subagent'),
  }));
  return coveringSample(groups, budgetBytes).map((group) => group.session);
}
