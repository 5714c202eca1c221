import type { AgentId } from '@agentdash/core/model';
import { useAgents } from '../data/agents';
import type { Facets } from '../data/use-facets';

/**
 * A select of the agents ('' = every agent), in the registry's order as `GET /api/agents` gives it: those that have a
 * session (`present`, the facets' agents, once known) and the one chosen; every agent the registry lists until then.
 */
export function AgentFilter({
  value,
  onChange,
  present,
}: {
  readonly value: AgentId | '';
  readonly onChange: (agent: AgentId | '') => void;
  readonly present: Facets['agents'] | undefined;
}) {
  const registry = useAgents() ?? [];
  const agents = present ? registry.filter((a) => a.id === value || present.some((p) => p.agent === a.id)) : registry;
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
