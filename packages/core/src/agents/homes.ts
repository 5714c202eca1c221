import { existsSync } from 'node:fs';
import { defaultAiderHomes, recognizesAiderPath } from '../adapters/aider/discover.js';
import { recognizesClaudePath } from '../adapters/claude-code/recognize.js';
import { defaultCodexHome, recognizesCodexPath } from '../adapters/codex/discover.js';
import { defaultCopilotHome, recognizesCopilotPath } from '../adapters/copilot/discover.js';
import { defaultGeminiHomes, recognizesGemini } from '../adapters/gemini/discover.js';
import { defaultOpenCodeHome, recognizesOpenCodePath } from '../adapters/opencode/discover.js';
import { defaultQwenHome, recognizesQwenPath } from '../adapters/qwen/discover.js';
import { defaultClaudeHome } from '../io/discover.js';
import type { AgentId } from '../model/agent.js';
import type { AgentAdapter } from './adapter.js';

/** Where an agent keeps its transcripts and how its folders are recognised: what an adapter says of its homes. */
export type AgentHomes = Pick<AgentAdapter, 'defaultHomes' | 'recognizes'> & { readonly id: AgentId };

/**
 * Each agent's homes, without its parser (light to load: for a command's default paths). The same functions as the
 * adapters' (a test holds them equal), in the registry's order.
 */
export const agentHomes: readonly AgentHomes[] = [
  { id: 'claude', defaultHomes: (env, homeDir) => [defaultClaudeHome(env, homeDir)], recognizes: recognizesClaudePath },
  { id: 'codex', defaultHomes: (env, homeDir) => [defaultCodexHome(env, homeDir)], recognizes: recognizesCodexPath },
  { id: 'gemini', defaultHomes: defaultGeminiHomes, recognizes: recognizesGemini },
  {
    id: 'copilot',
    defaultHomes: (env, homeDir) => [defaultCopilotHome(env, homeDir)],
    recognizes: recognizesCopilotPath,
  },
  { id: 'qwen', defaultHomes: (env, homeDir) => [defaultQwenHome(env, homeDir)], recognizes: recognizesQwenPath },
  {
    id: 'opencode',
    defaultHomes: (env, homeDir) => [defaultOpenCodeHome(env, homeDir)],
    recognizes: recognizesOpenCodePath,
  },
  { id: 'aider', defaultHomes: defaultAiderHomes, recognizes: recognizesAiderPath },
];

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
