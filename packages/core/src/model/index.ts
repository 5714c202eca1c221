/**
 * Browser-safe model of AgentDash: types and pure helpers, no Node APIs. The names the server and the dashboard
 * use; the rest of the model is core's own.
 * @module
 */
// Types only: the list's values reach the parsers through `import()`, which a browser bundle would follow.
export type { AgentId, AgentInfo } from './agent.js';
export type { CallInput } from './call-input.js';
export type { ImageValue, ResultBlock, ResultContent } from './content.js';
export type { Usage } from './record.js';
export type {
  HiddenReason,
  Session,
  SessionCounts,
  Subagent,
  SubagentSummary,
  TimelineEvent,
  UsageTotals,
} from './session.js';
export type { MeasuredCall, MeasuredRequest, SessionTelemetry } from './telemetry.js';
export { type CallStatus, type NoResultReason, primaryDurationMs, type ToolCall } from './tool-call.js';
export {
  type ErrorCategory,
  type ErrorSeverity,
  errorCategories,
  errorSeverities,
  exitOutput,
} from './tool-error.js';
export {
  type DataKind,
  dataKinds,
  type ResultData,
  type TypedResult,
  type TypedResultKind,
  type TypedResultOf,
} from './typed-result.js';
