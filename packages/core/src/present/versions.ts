/**
 * Client versions in filter menus: in the order of their numbers (`1.0.51` before `1.0.128`, which text puts after),
 * and grouped by the agent that wrote them (Claude Code's `2.1.3` and Gemini CLI's `0.6.1` are not one series).
 * @module
 */

const numeric = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Two version strings in the order of their numbers, part by part; text that is not numbers as text, to break ties. */
export function compareVersions(a: string, b: string): number {
  return numeric.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** One agent's versions, as a filter menu groups them. */
export interface AgentVersions<A extends string = string> {
  readonly agent: A;
  /** Its sessions' client versions, oldest first; empty when none recorded one. */
  readonly versions: readonly string[];
  /**
   * Its sessions' models and projects, sorted: the menus list an agent's own once it is chosen (Codex's sessions use no
   * Claude model). Absent from an older team server's answer.
   */
  readonly models?: readonly string[];
  readonly projects?: readonly string[];
}

/** The distinct values of each agent, sorted (`rows`: distinct `(agent, value)` pairs; null or '' values left out). */
export function valuesByAgent<A extends string>(
  rows: Iterable<{ readonly agent: A; readonly value: string | null }>,
): Map<A, string[]> {
  const out = new Map<A, Set<string>>();
  for (const { agent, value } of rows) {
    if (value === null || value === '') continue;
    const values = out.get(agent) ?? new Set<string>();
    values.add(value);
    out.set(agent, values);
  }
  return new Map([...out].map(([agent, values]) => [agent, [...values].sort()]));
}

/**
 * The agents and versions of a set of sessions, from its distinct `(agent, version)` pairs (`version` null or '' for
 * a session of no recorded version): each agent that has a session once, in the order of `order` (the registry's)
 * then by name, each with its versions oldest first; and every version once, oldest first.
 */
export function agentVersionFacets<A extends string>(
  pairs: Iterable<{ readonly agent: A; readonly version: string | null }>,
  order: readonly string[] = [],
): { readonly agents: readonly AgentVersions<A>[]; readonly versions: readonly string[] } {
  const byAgent = new Map<A, Set<string>>();
  const all = new Set<string>();
  for (const { agent, version } of pairs) {
    const versions = byAgent.get(agent) ?? new Set<string>();
    byAgent.set(agent, versions);
    if (version === null || version === '') continue;
    versions.add(version);
    all.add(version);
  }
  const rank = (agent: string) => {
    const at = order.indexOf(agent);
    return at < 0 ? order.length : at;
  };
  const agents = [...byAgent]
    .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([agent, versions]) => ({ agent, versions: [...versions].sort(compareVersions) }));
  return { agents, versions: [...all].sort(compareVersions) };
}
