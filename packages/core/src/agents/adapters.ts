import { AgentNotRegisteredError } from '../errors.js';
import { headlessOwnerOf } from '../io/headless.js';
import type { ListedFolder } from '../io/listed-folders.js';
import type { AgentId } from '../model/agent.js';
import type { AgentAdapter } from './adapter.js';
import { ownedBy } from './descriptor.js';
import { agents } from './registry.js';

/**
 * Every agent AgentDash reads, in the registry's order (`agents/registry.ts`, the one list of agents): each
 * descriptor's parser, loaded when this module is. A module that needs an adapter imports this one (its top-level
 * await is over before that module runs, so every use below is synchronous), and a command that needs none (a warm
 * index) never loads a parser. No adapter's own imports may reach this module: the await would wait for itself.
 */
export const agentAdapters: readonly AgentAdapter[] = await Promise.all(
  agents.map(async (agent) => ownedBy<AgentAdapter>(agent, await agent.loadAdapter())),
);

const adapters = new Map<string, AgentAdapter>(agentAdapters.map((adapter) => [adapter.id, adapter]));

/** The adapter of an agent; undefined when no adapter for it is registered. */
export function adapterFor(id: AgentId): AgentAdapter | undefined {
  return adapters.get(id);
}

/** A file's adapter, by the agent discovery recorded on it. */
export function adapterForFile(file: { readonly agent: AgentId }): AgentAdapter {
  const adapter = adapterFor(file.agent);
  if (adapter === undefined) throw new AgentNotRegisteredError(file.agent);
  return adapter;
}

/**
 * The adapters that recognise a path as theirs (a home, a folder inside one, a transcript), in registry order, of
 * `among` (default: every agent's). A file whose first line starts an agent's headless output is that agent's
 * alone, whatever its name (`io/headless.ts`). The folders their answers depend on are noted in `folders` when given
 * (`AgentAdapter.recognizes`).
 */
export async function adaptersForPath(
  path: string,
  folders?: ListedFolder[],
  among: readonly AgentAdapter[] = agentAdapters,
): Promise<AgentAdapter[]> {
  const headless = await headlessOwnerOf(path, among);
  if (headless !== undefined) return [headless.writer];
  const found = await Promise.all(among.map((adapter) => adapter.recognizes(path, folders)));
  return among.filter((_, index) => found[index]);
}
