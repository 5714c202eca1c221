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
  exportRedaction,
  readExportAssets,
  sessionHtmlChunks,
} from './export-html.js';
export { streamHtmlChunks } from './export-html-stream.js';
export { HttpError, sessionNotFound } from './http-error.js';
export type { IndexQueries } from './index-queries.js';
export { createLiveEvents, type LiveEvents, type LiveListener, sessionIdOfPath } from './live.js';
export { toSessionRow } from './mapping.js';
export { DEFAULT_OTLP_PORT } from './otlp/listen.js';
export { createOtlpApp, OTLP_MAX_BODY_BYTES } from './otlp/receiver.js';
export {
  MAX_TELEMETRY_STEPS,
  type SessionTelemetryDto,
  sessionTelemetryDto,
  teamTelemetrySetup,
  telemetryStepsResponse,
} from './otlp/telemetry-routes.js';
export { allowedHosts, CONTENT_SECURITY_POLICY, isLoopbackHost } from './security.js';
export { type RunningServer, type StartServerOptions, startServer } from './server.js';
export { createLocalSessionHost, type SessionHost, SessionViews } from './session-host.js';
export { hasMainFile } from './session-outline.js';
export { type StatsFilter, type StatsSource, statsResponse } from './stats-response.js';
export { topSessionGroups, type UsageSession, type UsageSource, usageResponse } from './usage-response.js';
