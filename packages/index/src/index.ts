/**
 * @agentdash/index: a persistent, incremental SQLite index of Claude Code transcripts, with full-text search.
 * @module
 */
export {
  type AgentIndex,
  DEFAULT_BUSY_TIMEOUT_MS,
  defaultDbPath,
  type ForgetReport,
  LIVE_WINDOW_MS,
  type OpenIndexOptions,
  openIndex,
  toFtsQuery,
} from './agent-index.js';
export { AmbiguousSessionError, IndexBusyError, IndexUnavailableError, UnknownSessionError } from './errors.js';
export { SCHEMA_VERSION } from './schema.js';
export { formatDuration, oneLine, type SummarizableCall, shortPath, summarizeCall } from './summarize.js';
export * from './types.js';
