import type { AgentId } from '@agentdash/core/model';
import { useAgents } from '../data/agents';

/** A select of the agents ('' = every agent), in the registry's order as `GET /api/agents` gives it. */
export function AgentFilter({
  value,
  onChange,
}: {
  readonly value: AgentId | '';
  readonly onChange: (agent: AgentId | '') => void;
}) {
  const agents = useAgents() ?? [];
  return (
    <select
      className="select"
      // An agent the registry does not list (a hand-edited address) is shown as what the list shows: every agent.
      value={agents.some((a) => a.id === value) ? value : ''}
      onChange={(e) => {
        const next = e.target.value;
        onChange(agents.find((a) => a.id === next)?.id ?? '');
      }}
      aria-label="Agent"
      data-testid="filter-agent"
    >
      <option value="">All agents</option>
      {agents.map((a) => (
        <option key={a.id} value={a.id}>
          {a.label}
        </option>
      ))}
    </select>
  );
}
