/** The agent of a stored row, and the core pieces the index reads files through. */
export { adapterForFile, discoverAll } from '@agentdash/core';
export { type AgentKind, agentOfRow } from './agent-kind.js';
