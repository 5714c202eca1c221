/**
 * @agentdash/api: the HTTP contract between the AgentDash server and its clients (the dashboard, tests, scripts).
 * Browser-safe: types, plus the pure find-in-session an HTML export answers with no server. The server implements
 * it (`@agentdash/server`); the dashboard imports only this, never the server.
 * @module
 */
export type * from './api-types.js';
export { ARRAY_LIMIT, type Clip, clip, IMAGE_ONCE_MARK, imagesOnce, STRING_LIMIT } from './clip.js';
export {
  type FindableEvent,
  type FindableItem,
  type FindableThreads,
  type FindHit,
  type FindResponse,
  findInThreads,
  type NoteTextOf,
} from './find-text.js';
export {
  type ApiPath,
  type ApiQuery,
  type ApiResponse,
  type ApiRoutes,
  type CallQuery,
  type CallStatusFilter,
  type CallsQuery,
  type EventsQuery,
  type FindQuery,
  fillPath,
  type HeldFileDto,
  type IssuesResponse,
  type LocateResponse,
  type NoQuery,
  type PathParams,
  type SessionCallsQuery,
  type SessionSort,
  type SessionsQuery,
  type SessionVersionsResponse,
  type StatsPageQuery,
  type StatsQuery,
  type TeamQuery,
  type UsageQuery,
  type ZonedQuery,
} from './routes.js';
export type * from './stats-types.js';
export type * from './telemetry-types.js';
