import { api } from './client';
import { sharedOnce } from './shared-once';
import type { AgentInfo } from './types';

/**
 * Every agent as the registry declares it (label, resume command, homes, badge colours), asked once per page;
 * undefined until known, none after a failed request (asked again by the next screen).
 */
export const useAgents = sharedOnce<readonly AgentInfo[]>(() => api.agents().then((r) => r.agents), []);

/** Every agent's name, "A, B or C" (as core's `agentLabels` says it for the CLI). */
export function agentLabels(agents: readonly AgentInfo[]): string {
  const labels = agents.map((agent) => agent.label);
  return labels.length < 2 ? labels.join('') : `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
}

/**
 * Whose usage limits the 5-hour blocks are, "A or B", when the agent chosen (`agent`, '' for all) has none (its
 * responses make no block: `AgentInfo.billingBlocks`); undefined when its blocks are shown, or the agents not yet
 * known.
 */
export function blocksOnlyOf(agents: readonly AgentInfo[] | undefined, agent: string): string | undefined {
  if (agents === undefined || agent === '') return undefined;
  const withBlocks = agents.filter((a) => a.billingBlocks === true);
  // no agent with blocks (none registered so): nothing to say whose they are
  if (withBlocks.length === 0) return undefined;
  return withBlocks.some((a) => a.id === agent) ? undefined : agentLabels(withBlocks);
}
