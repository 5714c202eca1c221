/**
 * The JSON contract between the AgentDash server and its clients lives in `@agentdash/api` (the dashboard imports
 * only that package, never the server): the server's modules read its types from here.
 * @module
 */
export type * from '@agentdash/api';
