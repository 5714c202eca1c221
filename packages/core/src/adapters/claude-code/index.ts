/**
 * Claude Code adapter: reads `~/.claude/projects/**.jsonl` transcripts of every client version.
 * @module
 */

export { hiddenReasonOf, userText } from './classify-user.js';
export { type CleanupPolicy, DEFAULT_CLEANUP_DAYS, readCleanupPolicy } from './cleanup-policy.js';
export { decodeContentBlock, decodeResultContent } from './decode-content.js';
export { decodeLine, decodeRecord, decodeUsage, knownMetaRecordTypes } from './decode-record.js';
export { type LoadSessionOptions, loadSession, usageByModel } from './load-session.js';
export { buildResultMap, durationsOf, typeResult } from './pair.js';
export { commandLine, promptTitleOf } from './prompt-title.js';
export { type FileRecords, readRecords, streamRecords } from './read-records.js';
export { type EnvelopeData, type ToolEnvelope, toEnvelope } from './results/envelope.js';
export { classifyError } from './results/errors.js';
export { kindOfTool, parseAnswerPairs, toolKinds } from './results/tools/index.js';
export { errorMessageOf, type ResultInput, typeToolResult } from './results/type-result.js';
export { agentIdOfResult, linkSubagents, splitSidechains } from './subagents.js';
export { canonicalToolName, isAgentTool, parseMcpToolName, toolNameAliases } from './tool-names.js';
export { buildRecordTree, parentOf, pathTo, type RecordTree } from './tree.js';
