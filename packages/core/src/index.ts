/**
 * @agentdash/core: discover coding-agent transcripts (through one adapter per agent), stream them in bounded memory, pair every tool call with
 * its result and type each result.
 * @module
 */

export * from './adapters/claude-code/index.js';
export { codexAdapter } from './adapters/codex/adapter.js';
export { type AgentAdapter, type AgentCapabilities, defineAdapter } from './agents/adapter.js';
export { discoverAll, existingDefaultHomes } from './agents/discover-all.js';
export { timestampDurations } from './agents/durations.js';
export { adapterFor, adapterForFile, adaptersForPath, agentAdapters } from './agents/registry.js';
export {
  AgentDashError,
  AgentNotRegisteredError,
  NotTranscriptError,
  PathNotFoundError,
  UnreadableFileError,
} from './errors.js';
export {
  type DiscoveredFile,
  type DiscoverOptions,
  type Discovery,
  defaultClaudeHome,
  discoverFiles,
  firstSessionId,
  groupSessions,
  projectDirOfFile,
  type SessionFiles,
} from './io/discover.js';
export {
  type ByteSource,
  type LineEvent,
  type OpenBytes,
  openFileBytes,
  type ReadEnd,
  type ReadLinesOptions,
  readLines,
} from './io/read-lines.js';
export * from './model/index.js';
export * from './time/index.js';
export * from './usage/index.js';
