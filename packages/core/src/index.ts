/**
 * @agentdash/core: discover coding-agent transcripts (through one adapter per agent), stream them in bounded memory, pair every tool call with
 * its result and type each result.
 *
 * The public API is what the other packages use, no more (reviewed in `__snapshots__/exports.txt`); everything
 * else in core is reached by relative imports inside it. Browser-safe parts have their own entry points:
 * `./model` (types and pure helpers), `./present` (how figures are written), `./time`, `./secrets`.
 * @module
 */

export { readCleanupPolicy } from './adapters/claude-code/cleanup-policy.js';
export { streamRecords } from './adapters/claude-code/read-records.js';
export { searchableResultText } from './adapters/claude-code/results/text.js';
export { canonicalToolName } from './adapters/claude-code/tool-names.js';
export type { AgentAdapter, AgentCapabilities, EmbeddedRecord } from './agents/adapter.js';
export { adapterForFile, adaptersForPath, agentAdapters } from './agents/adapters.js';
export { discoverAll, existingDefaultHomes } from './agents/discover-all.js';
export { timestampDurations } from './agents/durations.js';
export { isOfTool, isWrittenOfTool, toolTargets } from './agents/tool-filter.js';
export { AgentDashError, NotTranscriptError, PathNotFoundError, UnreadableFileError } from './errors.js';
export {
  type DiscoveredFile,
  defaultClaudeHome,
  discoverFiles,
  groupSessions,
  projectDirOfFile,
  type SessionFiles,
} from './io/discover.js';
export { isPartlySearched } from './io/home-search.js';
export type { ListedFolder } from './io/listed-folders.js';
export {
  type ByteSource,
  type LineEvent,
  type OpenBytes,
  openFileBytes,
  type ReadEnd,
  readLines,
  WRITE_SETTLE_MS,
} from './io/read-lines.js';
export { type AgentId, agentIds, blockAgents, isAgentId, projectFolderAgents } from './model/agent.js';
export { type ResultContent, resultText } from './model/content.js';
export { createIsoTimestamp, createRecordUuid, createToolUseId, timestampMs } from './model/ids.js';
export type { ParseIssue, ParseIssueCode } from './model/issue.js';
export { typedResultJsonSchemas } from './model/json-schema.js';
export type { RawCall, RawResult, RecordEvent } from './model/raw.js';
export type { AssistantRecord, TranscriptRecord } from './model/record.js';
export type {
  AssistantItem,
  Session,
  SessionCounts,
  Subagent,
  SubagentSummary,
  TimelineEvent,
} from './model/session.js';
export { matchSubagents, type SubagentLinkKind } from './model/subagent-links.js';
export { primaryDurationMs, type ToolCall } from './model/tool-call.js';
export type { ErrorCategory, ErrorSeverity } from './model/tool-error.js';
export { claudeCodeTelemetryEnv, codexTelemetryToml, geminiTelemetrySettings } from './otel/claude-env.js';
export { decodeOtlpRequest, type OtlpRequest, otlpEncodingOf, signalOfOtlpPath } from './otel/decode.js';
export {
  eventFacts,
  type SpanFacts,
  spanFacts,
  spanToolResult,
  type TelemetryFacts,
  telemetryClientName,
  telemetrySessionId,
} from './otel/facts.js';
export {
  attrBool,
  attrNumber,
  attrText,
  type OtelAttributes,
  type OtelDecoded,
  type OtelEvent,
  type OtelIssue,
  type OtelMetricPoint,
  type OtelRecord,
  type OtelSignal,
  type OtelSpan,
  type OtelValue,
} from './otel/types.js';
export { commandLine } from './present/notes.js';
export { type ToolEnvelope, toEnvelope } from './results/envelope.js';
export { attachmentImages, attachmentLabel, attachmentShows } from './session/attachment-note.js';
export { hiddenReasonOf, isPrompt, userText } from './session/classify-user.js';
export { blockIdsOf, CopyFilter } from './session/copies.js';
export { EmbeddedThreads } from './session/embedded.js';
export {
  backgroundTaskOf,
  extremesBy,
  type HeaderCall,
  type HeaderCounts,
  type HeaderThread,
  headerCallOf,
  headerCountsOf,
  type SystemNoteFacts,
  systemNoteLabel,
  timelineShows,
} from './session/header.js';
export { blockedByHook, preToolHookCallOf } from './session/hooked-calls.js';
export { type LoadSessionOptions, loadSession } from './session/load-session.js';
export { missingMainIssue } from './session/missing-main.js';
export { noteSourceOf } from './session/note-source.js';
export { reusedCallId } from './session/pair.js';
export { promptTitleOf, threadTitleOf } from './session/prompt-title.js';
export { isFailedRequestEvent, type RequestFailure, requestFailureOf } from './session/request-failure.js';
export {
  openSessionStream,
  type SessionHead,
  type SessionStream,
  type SessionTail,
  STREAM_FROM_BYTES,
} from './session/session-stream.js';
export { agentIdOfResult, SidechainRuns, sidechainKey } from './session/subagents.js';
export {
  countsForTime,
  type RecordFact,
  type RecordPlace,
  SessionSummary,
  type SummaryOf,
  type TitleFact,
  type TitleSource,
} from './session/summary.js';
export {
  isWarmup,
  MAX_META_BYTES,
  ResultPairing,
  shownOf,
  type ThreadFact,
  ThreadTally,
  threadPromptOf,
} from './session/thread-tally.js';
// The time module's names are its own index's (packages/core/src/time, kept by the time partition's owner).
export * from './time/index.js';
export {
  bandPricer,
  cacheHitRatio,
  groupUsage,
  isTimeZone,
  type ModelUsage,
  type PricedResponse,
  periodKey,
  periodKeyer,
  priceResponses,
  responsePricer,
  totalsOf,
  type UsageGroup,
  type UsagePeriod,
} from './usage/aggregate.js';
export { type BillingBlock, BLOCK_MS, billingBlocks, blocksOverlapping } from './usage/blocks.js';
export { dedupeResponses, type ResponseUsage, type UsageRecord } from './usage/dedupe.js';
export { parsePriceFile } from './usage/litellm.js';
export { defaultPriceTable } from './usage/price-table.js';
export {
  bandRates,
  findPrice,
  mergePriceTables,
  PROMPT_BOUNDARIES,
  type PriceTable,
  promptBand,
  responseCost,
  tokensCost,
} from './usage/pricing.js';
export { type ResponseIds, type ResponseScope, responseKeyOf } from './usage/response-key.js';
export { addTokens, promptTokens, totalTokens, usageTotalsOf, zeroTokens } from './usage/tokens.js';
