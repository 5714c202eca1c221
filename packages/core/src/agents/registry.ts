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

/**
 * The agent registry's light half: one line binds an agent's id (its `agentInfos` entry, `model/agent.ts`) to its
 * homes. The compiler asks for a new agent's line here and in `adapters.ts` (its adapter) once its id is in
 * `agentInfos`, and checks each line names that agent's. This module loads no parser: the CLI reads the homes from it
 * without one.
 */
export const registry = {
  claude: claudeHomes,
  codex: codexHomes,
  gemini: geminiHomes,
  copilot: copilotHomes,
  qwen: qwenHomes,
  opencode: openCodeHomes,
  aider: aiderHomes,
} as const satisfies { readonly [K in AgentId]: AgentHomes & { readonly id: K } };

/** Each agent's homes, in the registry's order (for a command's default paths, without loading a parser). */
export const agentHomes: readonly AgentHomes[] = agentIds.map((id) => registry[id]);

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
