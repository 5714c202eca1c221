import { type AgentId, agentInfos } from '@agentdash/core/model';
import type { CSSProperties } from 'react';
import { agentLabel, useAgents } from '../data/agents';

/** `#rrggbb` as `rgba(r, g, b, alpha)`. */
function tint(hex: string, alpha: number): string {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/** The chip's colours on both themes, from the agent registry (styles.css picks the theme's); none for an id it lacks. */
function chipStyle(agent: AgentId): CSSProperties {
  const badge = agentInfos.find((a) => a.id === agent)?.badge;
  if (badge === undefined) return {};
  const { dark, light } = badge;
  return {
    '--chip-dark': dark,
    '--chip-dark-bg': tint(dark, 0.12),
    '--chip-light': light,
    '--chip-light-bg': tint(light, 0.09),
  } as CSSProperties;
}

/** The agent that wrote a session, as a small badge. */
export function AgentBadge({ agent }: { readonly agent: AgentId }) {
  const label = agentLabel(useAgents(), agent);
  return (
    <span
      className={`badge agent agent-${agent}`}
      style={chipStyle(agent)}
      data-testid="agent-badge"
      data-agent={agent}
      title={label}
    >
      {label}
    </span>
  );
}
