import { aiderAdapter } from '../adapters/aider/adapter.js';
import { claudeCodeAdapter } from '../adapters/claude-code/adapter.js';
import { codexAdapter } from '../adapters/codex/adapter.js';
import { copilotAdapter } from '../adapters/copilot/adapter.js';
import { geminiAdapter } from '../adapters/gemini/adapter.js';
import { openCodeAdapter } from '../adapters/opencode/adapter.js';
import { qwenAdapter } from '../adapters/qwen/adapter.js';
import { AgentNotRegisteredError } from '../errors.js';
import type { ListedFolder } from '../io/listed-folders.js';
import { type AgentId, agentIds } from '../model/agent.js';
import type { AgentAdapter } from './adapter.js';

/** Each registered agent's adapter (the compiler asks for a new agent's here once its id is in `agentInfos`). */
const adapterOf = {
  claude: claudeCodeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
  copilot: copilotAdapter,
  qwen: qwenAdapter,
  opencode: openCodeAdapter,
  aider: aiderAdapter,
} as const satisfies { readonly [K in AgentId]: AgentAdapter & { readonly id: K } };

/**
 * Every agent AgentDash reads, in the registry's order (`agentInfos` in `model/agent.ts`, the one list of agents).
 * Adding an agent: its folder under `core/src/adapters/` and its entry in `agentInfos`; the compiler then asks for
 * its adapter here and its homes in `homes.ts`.
 */
export const agentAdapters: readonly AgentAdapter[] = agentIds.map((id) => adapterOf[id]);

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
