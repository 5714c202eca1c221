/**
 * @agentdash/server: the JSON API, live updates over SSE, and the built dashboard.
 * @module
 */
export type { AgentIndex, IndexFilter } from './agent-index.js';
export type * from './api-types.js';
export { type AppDeps, createApp } from './app.js';
export {
  type ExportAssets,
  ExportAssetsMissingError,
  type ExportRedaction,
  readExportAssets,
  sessionHtmlChunks,
} from './export-html.js';
export { createLiveEvents, type LiveEvents, type LiveListener, sessionIdOfPath } from './live.js';
export { allowedHosts, CONTENT_SECURITY_POLICY, isLoopbackHost } from './security.js';
export { type RunningServer, type StartServerOptions, startServer } from './server.js';
