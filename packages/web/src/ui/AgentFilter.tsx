import { type AgentId, agentIds } from '@agentdash/core/model';
import { agentLabel, useAgents } from '../data/agents';

/** A select of the agents ('' = every agent). */
export function AgentFilter({
  value,
  onChange,
}: {
  readonly value: AgentId | '';
  readonly onChange: (agent: AgentId | '') => void;
}) {
  const agents = useAgents();
  return (
    <select
      className="select"
      value={value}
      onChange={(e) => {
        const next = e.target.value;
        onChange(agentIds.find((id) => id === next) ?? '');
      }}
      aria-label="Agent"
      data-testid="filter-agent"
    >
      <option value="">All agents</option>
      {agentIds.map((id) => (
        <option key={id} value={id}>
          {agentLabel(agents, id)}
        </option>
      ))}
    </select>
  );
}
