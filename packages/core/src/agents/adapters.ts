import { AgentNotRegisteredError } from '../errors.js';
import type { ListedFolder } from '../io/listed-folders.js';
import { type AgentId, agentIds } from '../model/agent.js';
import type { AgentAdapter } from './adapter.js';
import { registry } from './registry.js';

/**
 * Every agent AgentDash reads, its adapter loaded from the registry's line (`registry.ts`), in the registry's order
 * (`agentInfos` in `model/agent.ts`, the one list of agents).
 */
export const agentAdapters: readonly AgentAdapter[] = await Promise.all(
  agentIds.map(async (id) => (await registry[id].adapter()).default),
);

/** The adapter of an agent; undefined when no adapter for it is registered. */
export function adapterFor(id: AgentId): AgentAdapter | undefined {
  return agentAdapters.find((adapter) => adapter.id === id);
}

/** A file's adapter, by the agent discovery recorded on it. */
export function adapterForFile(file: { readonly agent: AgentId }): AgentAdapter {
  const adapter = adapterFor(file.agent);
  if (adapter === undefined) throw new AgentNotRegisteredError(file.agent);
  return adapter;
}

/**
 * The adapters that recognise a path as theirs (a home, a folder inside one, a transcript), in registry order. The
 * folders their answers depend on are noted in `folders` when given (`AgentAdapter.recognizes`).
 */
export async function adaptersForPath(path: string, folders?: ListedFolder[]): Promise<AgentAdapter[]> {
  const found = await Promise.all(agentAdapters.map((adapter) => adapter.recognizes(path, folders)));
  return agentAdapters.filter((_, index) => found[index]);
}
