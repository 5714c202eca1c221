import type { AgentId } from '@agentdash/core/model';

/** What each agent is called on screen. */
export const agentLabels = {
  claude: 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini',
} as const satisfies Record<AgentId, string>;

/** The agent that wrote a session, as a small badge. */
export function AgentBadge({ agent }: { readonly agent: AgentId }) {
  return (
    <span
      className={`badge agent agent-${agent}`}
      data-testid="agent-badge"
      data-agent={agent}
      title={agentLabels[agent]}
    >
      {agentLabels[agent]}
    </span>
  );
}
