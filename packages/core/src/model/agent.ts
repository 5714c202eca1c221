/**
 * The agents AgentDash reads, by the id `--agent` takes. Shared code never switches on them: what differs between
 * agents is in their adapter (`core/src/adapters/<agent>/`) and its declared capabilities.
 */
export const agentIds = ['claude', 'codex', 'gemini', 'copilot', 'qwen', 'opencode', 'aider'] as const;
export type AgentId = (typeof agentIds)[number];

/** Whether a string is a known agent id (for parsing `--agent` and query strings). */
export function isAgentId(value: string): value is AgentId {
  return (agentIds as readonly string[]).includes(value);
}
