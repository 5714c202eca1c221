/**
 * The parts of core with no parser behind them: errors, agent ids, the agents' homes and Claude Code's cleanup
 * setting. Cheap to load (no adapter, no zod), for a command answered from a warm index.
 * @module
 */

export { aiderHistoriesIn } from './adapters/aider/discover.js';
export { type CleanupPolicy, readCleanupPolicy } from './adapters/claude-code/cleanup-policy.js';
export type { AgentHomes } from './agents/adapter.js';
export { existingHomes, loadHomes } from './agents/homes.js';
export {
  AgentDashError,
  AgentNotRegisteredError,
  messageOf,
  NotTranscriptError,
  PathNotFoundError,
  UnreadableFileError,
} from './errors.js';
export { defaultClaudeHome } from './io/discover.js';
export { type FileStat, fileStat } from './io/file-stat.js';
export { isUnder } from './io/paths.js';
export {
  type AgentId,
  agentIds,
  agentInfo,
  agentInfos,
  agentLabels,
  blockAgents,
  isAgentId,
  ownFolderAgents,
  projectFolderAgents,
} from './model/agent.js';
export { outputTime } from './model/ids.js';
export { claudeModelQuery } from './model/model-id.js';
