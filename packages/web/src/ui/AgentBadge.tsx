import type { AgentId } from '@agentdash/core/model';
import type { CSSProperties } from 'react';
import { useAgents } from '../data/agents';
import type { AgentInfo } from '../data/types';

/** `#rrggbb` as `rgba(r, g, b, alpha)`. */
function tint(hex: string, alpha: number): string {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/**
 * The chip's colours on both themes, from the agent registry as `GET /api/agents` gives it (styles.css picks the
 * theme's); none until the agents are known, or for an id the registry lacks.
 */
function chipStyle(info: AgentInfo | undefined): CSSProperties {
  if (info === undefined) return {};
  const { dark, light } = info.badge;
  return {
    '--chip-dark': dark,
    '--chip-dark-bg': tint(dark, 0.12),
    '--chip-light': light,
    '--chip-light-bg': tint(light, 0.09),
  } as CSSProperties;
}

/** The agent that wrote a session, as a small badge. */
export function AgentBadge({ agent }: { readonly agent: AgentId }) {
  const info = useAgents()?.find((a) => a.id === agent);
  const label = info?.label ?? agent;
  return (
    <span
      className={`badge agent agent-${agent}`}
      style={chipStyle(info)}
      data-testid="agent-badge"
      data-agent={agent}
      title={label}
    >
      {label}
    </span>
  );
}
