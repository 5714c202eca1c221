/** The agent of a stored row, from core's light half (no adapter behind it: the warm path reads rows with it). */
import { agentIds, isAgentId } from '@agentdash/core/base';

export type AgentKind = (typeof agentIds)[number];

/** The agent of a row written without one: the registry's first (Claude Code, the only agent of the first indexes). */
export const DEFAULT_AGENT: AgentKind = agentIds[0];

/** A stored agent column as an agent id (rows written before the column existed are Claude Code's). */
export function agentOfRow(value: string | null | undefined): AgentKind {
  return value !== null && value !== undefined && isAgentId(value) ? value : DEFAULT_AGENT;
}
