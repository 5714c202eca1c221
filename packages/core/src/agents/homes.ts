import { existsSync } from 'node:fs';
import { defaultAiderHomes, recognizesAiderPath } from '../adapters/aider/discover.js';
import { recognizesClaudePath } from '../adapters/claude-code/recognize.js';
import { defaultCodexHome, recognizesCodexPath } from '../adapters/codex/discover.js';
import { defaultCopilotHome, recognizesCopilotPath } from '../adapters/copilot/discover.js';
import { defaultGeminiHomes, recognizesGemini } from '../adapters/gemini/discover.js';
import { defaultOpenCodeHome, recognizesOpenCodePath } from '../adapters/opencode/discover.js';
import { defaultQwenHome, recognizesQwenPath } from '../adapters/qwen/discover.js';
import { defaultClaudeHome } from '../io/discover.js';
import { type AgentId, agentIds, agentInfo } from '../model/agent.js';
import type { AgentAdapter } from './adapter.js';

/**
 * What an adapter says of an agent without its parser: the registry's id, label and resume command, and where the
 * agent keeps its transcripts and how its folders are recognised. Each adapter spreads its entry.
 */
export type AgentHomes = Pick<AgentAdapter, 'id' | 'label' | 'resume' | 'defaultHomes' | 'recognizes'>;

const homes = <K extends AgentId>(
  id: K,
  defaultHomes: AgentAdapter['defaultHomes'],
  recognizes: AgentAdapter['recognizes'],
): AgentHomes & { readonly id: K } => {
  const { label, resume } = agentInfo(id);
  return { id, label, resume, defaultHomes, recognizes };
};

/** Each registered agent's homes (the compiler asks for a new agent's here), light to load: no parser behind it. */
export const homesOf = {
  claude: homes('claude', (env, homeDir) => [defaultClaudeHome(env, homeDir)], recognizesClaudePath),
  codex: homes('codex', (env, homeDir) => [defaultCodexHome(env, homeDir)], recognizesCodexPath),
  gemini: homes('gemini', defaultGeminiHomes, recognizesGemini),
  copilot: homes('copilot', (env, homeDir) => [defaultCopilotHome(env, homeDir)], recognizesCopilotPath),
  qwen: homes('qwen', (env, homeDir) => [defaultQwenHome(env, homeDir)], recognizesQwenPath),
  opencode: homes('opencode', (env, homeDir) => [defaultOpenCodeHome(env, homeDir)], recognizesOpenCodePath),
  aider: homes('aider', defaultAiderHomes, recognizesAiderPath),
} as const satisfies { readonly [K in AgentId]: AgentHomes & { readonly id: K } };

/** Each agent's homes, in the registry's order (for a command's default paths, without loading a parser). */
export const agentHomes: readonly AgentHomes[] = agentIds.map((id) => homesOf[id]);

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
