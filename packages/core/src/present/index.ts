/**
 * Browser-safe presentation rules shared by the CLI, the server and the dashboard: how numbers, tokens, costs,
 * bytes, durations, dates, error counts, tool names and tool calls are written, so every surface shows the same
 * figures in the same words.
 * @module
 */

export { type CalendarTime, calendarTimeMs, calendarTimeOf, isoDayOf } from './calendar-time.js';
export { callChangeDiff } from './call-change.js';
export { COMPACTION_RUN, isCompactionRun } from './compaction.js';
export {
  dayBoundMs,
  formatClock,
  formatDateTime,
  formatDay,
  formatRange,
  formatRelative,
  localDayBoundMs,
  rangeParts,
  zoneLabel,
} from './dates.js';
export { formatDuration, spanMs, timeIsOwn } from './duration.js';
export { errorsTone, formatErrors, realErrors, type Tone } from './errors.js';
export {
  FILE_CALL_IDS,
  FILE_SOURCES_NOTE,
  type FileActivity,
  FileTally,
  type FileTouch,
  fileActivityOf,
  fileChanged,
  filesTouchedBy,
  mayTouchFiles,
  type TouchingCall,
} from './file-activity.js';
export { replacementDelta, replacementLines } from './line-diff.js';
export { messageOf } from './message.js';
export { noteFields, noteLabel } from './notes.js';
export {
  type CostGaps,
  costGapsNote,
  costIsLowerBound,
  formatBytes,
  formatCompact,
  formatCost,
  formatCount,
  formatPercent,
  formatResponseOutput,
  formatTokenLine,
  formatTokenParts,
  formatTokens,
  formatTokensAtLeast,
  imagesWord,
  inputIsLowerBound,
  noUsageText,
  nounFor,
  outputIsLowerBound,
  plural,
  sumTokens,
  type TokenGaps,
  unrecordedNotes,
} from './numbers.js';
export { otherBlockLabel, otherBlockRaw } from './other-block.js';
export { isAbsolutePath, joinedPath, relativePath } from './paths.js';
export { hasControls, keepColours, plainText } from './plain-text.js';
export {
  callDetail,
  countLines,
  type ReadSpan,
  readSpan,
  type SummarizableCall,
  summarizeCall,
} from './summarize-call.js';
export {
  baseName,
  modelLabel,
  modelList,
  oneLine,
  shortId,
  shortModel,
  shortModels,
  shortPath,
  shortRefs,
  uniquePrefixes,
} from './text.js';
export { isThinkingUnwritten, repeatsUnwrittenThinking, UNWRITTEN_THINKING } from './thinking.js';
export { formatToolName } from './tool-name.js';
export { formatTypedChars } from './typed-chars.js';
export { type AgentVersions, agentVersionFacets, compareVersions, valuesByAgent } from './versions.js';
export { documentLines, terminalLines, terminalText } from './visible-controls.js';
