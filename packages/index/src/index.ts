/**
 * @agentdash/index: a persistent, incremental SQLite index of coding agents' transcripts, with full-text search.
 * @module
 */

// The rules live in core's presentation module; re-exported for packages that imported them from here.
export { formatDuration, oneLine, type SummarizableCall, summarizeCall } from '@agentdash/core/present';
export {
  type AgentIndex,
  DEFAULT_BUSY_TIMEOUT_MS,
  DEFAULT_SEARCH_LIMIT,
  defaultDbPath,
  type ForgetReport,
  LIVE_WINDOW_MS,
  type OpenIndexOptions,
  openIndex,
  type SessionLookup,
  toFtsQuery,
} from './agent-index.js';
export { DEFAULT_AGENT } from './agent-kind.js';
export type { HeldFile, SessionVersions } from './archive/session-versions.js';
export {
  AmbiguousSessionError,
  DAMAGED_INDEX_MEND,
  explainDamage,
  IndexBusyError,
  IndexDamagedError,
  IndexUnavailableError,
  isCorruption,
  NewerDerivedIndexError,
  OtherBuildError,
  UnknownSessionError,
} from './errors.js';
export { accountBlocks, blockChainStart, NoBlocksError } from './read/account-blocks.js';
export { cutSnippet } from './read/doc-snippet.js';
export { ownsBeforeSql } from './read/home-copies.js';
export { SHOWN_SESSION, shownSession } from './read/scope.js';
export type { CopiedFrom } from './read/session-copies.js';
export type { SessionHeaderParts, SubagentHeader } from './read/session-header.js';
export {
  type SessionFacets,
  type SessionPage,
  type SessionPageQuery,
  type SessionSort,
  type SessionTotals,
  sessionSorts,
  UNKNOWN_LAST,
  unknownLastSql,
} from './read/session-page.js';
export { occurrencesOf, queryPhrases, tokensOf } from './read/snippet-tokens.js';
export type { UsageContext, UsageResponse } from './read/usage-queries.js';
export { ownsBefore, type SessionRow as OwningSession } from './read/usage-queries.js';
export { DERIVED_VERSION, SCHEMA_VERSION } from './schema/schema.js';
export { NativeAddonError } from './schema/sqlite-addon.js';
export type {
  MeasuredCall,
  MeasuredRequest,
  MeasuredSession,
  MeasuredToolRun,
  MeasuredToolStat,
  MeasuredToolStats,
  SessionTelemetry,
  StoreReport,
  TelemetryJoins,
  TelemetryStep,
  TelemetryStore,
  TelemetryWriterDb,
} from './telemetry/index.js';
export {
  addMeasured,
  type MeasuredTimeTotals,
  MODEL_TIME_EVENTS,
  measuredToolStats,
  openTelemetryWriter,
  TELEMETRY_FIRST_MS,
  TELEMETRY_LAST_MS,
  TELEMETRY_NEWEST_FIRST,
  type TelemetryStepRow,
  telemetryStepOf,
  telemetryStepsSql,
} from './telemetry/index.js';
export * from './types.js';
export {
  type CallOptions,
  errorDataOf,
  type MethodOf,
  type NoNotices,
  type RequestOf,
  type ResponseOf,
  RPC_CODES,
  type RpcCall,
  type RpcContext,
  type RpcErrorData,
  type RpcHandlers,
  type RpcProtocol,
  type StreamOf,
  serveRpc,
  WorkerRpcClient,
  WorkerRpcError,
} from './worker-rpc.js';
export { announceLoaded, builtWorkerScript, startBuiltWorker, stopWorker, WORKER_LOADED } from './worker-script.js';
export type { BuildProgress } from './write/building.js';
// The searchable texts and their words as the full-text index has them: a team server indexes pushed transcripts
// with these, so its search finds what the laptop's does.
export { docPartsOf, indexedText, MAX_DOC_CHARS } from './write/doc-parts.js';
