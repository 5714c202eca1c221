/** The agent of a stored row, and the core pieces the index reads files through. */
import { agentIds, isAgentId } from '@agentdash/core';

export { adapterForFile, discoverAll } from '@agentdash/core';

export type AgentKind = (typeof agentIds)[number];

/** A stored agent column as an agent id (rows written before the column existed are Claude Code's). */
export function agentOfRow(value: string | null | undefined): AgentKind {
  return value !== null && value !== undefined && isAgentId(value) ? value : (agentIds[0] satisfies AgentKind);
}
