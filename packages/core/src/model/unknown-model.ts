import type { AgentId } from './agent.js';

const SUFFIX = '-unknown-model';

/**
 * The model id an adapter gives the responses of a session whose files never name their model: unpriced, and shown as
 * such (`modelLabel`). One per agent, so one agent's unknown model is never summed with another's.
 * @example unknownModelOf('codex') // 'codex-unknown-model'
 */
export function unknownModelOf(id: AgentId): string {
  return `${id}${SUFFIX}`;
}

/** The agent whose `unknownModelOf` a model id is, or `undefined` for a model's own id. */
export function agentOfUnknownModel(model: string, isAgent: (id: string) => id is AgentId): AgentId | undefined {
  if (!model.endsWith(SUFFIX)) return undefined;
  const id = model.slice(0, -SUFFIX.length);
  return isAgent(id) ? id : undefined;
}
