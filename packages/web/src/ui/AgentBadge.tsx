import type { AgentId } from '@agentdash/core/model';
import { agentLabel, useAgents } from '../data/agents';

/** The agent that wrote a session, as a small badge. */
export function AgentBadge({ agent }: { readonly agent: AgentId }) {
  const label = agentLabel(useAgents(), agent);
  return (
    <span className={`badge agent agent-${agent}`} data-testid="agent-badge" data-agent={agent} title={label}>
      {label}
    </span>
  );
}
