import { agents } from '../agents/registry.js';

export type { AgentInfo } from '../agents/descriptor.js';

/**
 * Every agent AgentDash reads, in the order shown: the data every part may know of an agent without its parser (id,
 * name, how its CLI resumes, where its transcripts live in words, its badge's colours), from the descriptors of the
 * registry (`agents/registry.ts`, one line per agent). Shared code never switches on the ids: what differs between
 * agents in reading their files is in their adapter folder (`core/src/adapters/<agent>/`) and its capabilities.
 * `claude` stays first: rows stored without an agent are Claude Code's.
 */
export const agentInfos = agents;

type IdsOf<T extends readonly { readonly id: string }[]> = { readonly [K in keyof T]: T[K]['id'] };

/** The agents' ids, in the registry's order. */
export const agentIds = agentInfos.map((agent) => agent.id) as unknown as IdsOf<typeof agentInfos>;
export type AgentId = (typeof agentInfos)[number]['id'];

/** Whether a string is a known agent id (for parsing `--agent` and query strings). */
export function isAgentId(value: string): value is AgentId {
  return (agentIds as readonly string[]).includes(value);
}

/** An agent's entry in the registry. */
export function agentInfo<K extends AgentId>(id: K): Extract<(typeof agentInfos)[number], { readonly id: K }> {
  return agentInfos.find((agent) => agent.id === id) as Extract<(typeof agentInfos)[number], { readonly id: K }>;
}

/** The agents whose sessions' folder is named for their project (`AgentInfo.projectFolder`), in the registry's order. */
export const projectFolderAgents: readonly AgentId[] = agentInfos.filter((a) => a.projectFolder).map((a) => a.id);

/**
 * The agents whose transcripts are in folders of their own (`~/.claude`, `~/.codex`, …), not in the person's
 * (`AgentInfo.inPersonsFolders`: Aider's repositories), in the registry's order.
 */
export const ownFolderAgents: readonly AgentId[] = agentInfos
  .filter((a) => !('inPersonsFolders' in a && a.inPersonsFolders === true))
  .map((a) => a.id);

/** The agents whose usage limits are 5-hour billing blocks (`AgentInfo.billingBlocks`), in the registry's order. */
export const blockAgents: readonly AgentId[] = agentInfos
  .filter((a) => 'billingBlocks' in a && a.billingBlocks === true)
  .map((a) => a.id);

/** Every agent's name, "A, B or C" (help text and messages). */
export function agentLabels(): string {
  const labels = agentInfos.map((agent) => agent.label);
  return labels.length < 2 ? labels.join('') : `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
}
