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

/**
 * Each agent's adapter, by id: the parsers' half of the registry (`registry.ts` holds the light half, the homes).
 * The compiler asks for a new agent's line here once its id is in `agentInfos`, and checks the line names that
 * agent's adapter. Imported statically, with no top-level await: a module that needs an adapter imports this one,
 * and a command that needs none (a warm index) never loads a parser.
 */
const adapters = {
  claude: claudeCodeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
  copilot: copilotAdapter,
  qwen: qwenAdapter,
  opencode: openCodeAdapter,
  aider: aiderAdapter,
} as const satisfies { readonly [K in AgentId]: AgentAdapter & { readonly id: K } };

/** Every agent AgentDash reads, in the registry's order (`agentInfos` in `model/agent.ts`, the one list of agents). */
export const agentAdapters: readonly AgentAdapter[] = agentIds.map((id) => adapters[id]);

/** The adapter of an agent; undefined when no adapter for it is registered. */
export function adapterFor(id: AgentId): AgentAdapter | undefined {
  return Object.hasOwn(adapters, id) ? adapters[id] : undefined;
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
