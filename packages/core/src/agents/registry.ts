import { existsSync } from 'node:fs';
import { aiderHomes } from '../adapters/aider/homes.js';
import { claudeHomes } from '../adapters/claude-code/homes.js';
import { codexHomes } from '../adapters/codex/homes.js';
import { copilotHomes } from '../adapters/copilot/homes.js';
import { geminiHomes } from '../adapters/gemini/homes.js';
import { openCodeHomes } from '../adapters/opencode/homes.js';
import { qwenHomes } from '../adapters/qwen/homes.js';
import { type AgentId, agentIds } from '../model/agent.js';
import type { AgentAdapter, AgentHomes } from './adapter.js';

/** An agent's line in the registry: its homes (light) and its adapter, loaded when `adapters.ts` is. */
interface Registered<K extends AgentId> {
  readonly homes: AgentHomes & { readonly id: K };
  /** Its adapter module, whose default export is the adapter. */
  readonly adapter: () => Promise<{ readonly default: AgentAdapter & { readonly id: K } }>;
}

/**
 * The agent registry: one line binds an agent's id (its `agentInfos` entry, `model/agent.ts`) to its adapter folder.
 * The compiler asks for a new agent's line here once its id is in `agentInfos`, and checks the line names that
 * agent's homes and adapter. This module loads no parser: the CLI reads the homes from it without one.
 */
export const registry = {
  claude: { homes: claudeHomes, adapter: () => import('../adapters/claude-code/adapter.js') },
  codex: { homes: codexHomes, adapter: () => import('../adapters/codex/adapter.js') },
  gemini: { homes: geminiHomes, adapter: () => import('../adapters/gemini/adapter.js') },
  copilot: { homes: copilotHomes, adapter: () => import('../adapters/copilot/adapter.js') },
  qwen: { homes: qwenHomes, adapter: () => import('../adapters/qwen/adapter.js') },
  opencode: { homes: openCodeHomes, adapter: () => import('../adapters/opencode/adapter.js') },
  aider: { homes: aiderHomes, adapter: () => import('../adapters/aider/adapter.js') },
} as const satisfies { readonly [K in AgentId]: Registered<K> };

/** Each agent's homes, in the registry's order (for a command's default paths, without loading a parser). */
export const agentHomes: readonly AgentHomes[] = agentIds.map((id) => registry[id].homes);

/** Each agent's default homes that exist on this machine (env and home dir passed in: core has no `process`). */
export function existingHomes<A extends Pick<AgentAdapter, 'defaultHomes'>>(
  env: Readonly<Record<string, string | undefined>>,
  homeDir: string,
  agents: readonly A[],
): { readonly agent: A; readonly home: string }[] {
  return agents.flatMap((agent) =>
    agent
      .defaultHomes(env, homeDir)
      .filter((home) => existsSync(home))
      .map((home) => ({ agent, home })),
  );
}
