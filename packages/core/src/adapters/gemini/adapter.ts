import { defineAdapter } from '../../agents/adapter.js';
import { timestampDurationsWithoutWaits } from '../../agents/durations.js';
import { discoverGemini, geminiStreamStart } from './discover.js';
import { geminiHomes } from './homes.js';
import { streamGeminiRecords } from './stream-records.js';
import { canonicalGeminiToolName, kindOfGeminiTool } from './tool-names.js';
import { typeGeminiInput } from './type-input.js';
import { typeGeminiResult } from './type-result.js';

/**
 * Gemini CLI: `~/.gemini/tmp/<project>/chats/session-*.json` (one document rewritten in place, ≤0.2x) and
 * `session-*.jsonl` (replace-by-id and `$set` lines, 0.4x+), subagents in `chats/<session>/<agent>.jsonl`.
 * Durations are the shared timestamp delta: each call record is stamped with the start its id carries and each
 * result with the call's completion time; Gemini records no run time of its own, so a delta longer than the idle
 * threshold (a wait for the person's approval) is no duration.
 */
export const geminiAdapter = defineAdapter({
  ...geminiHomes,
  // A message is written again when it changes (JSONL) or the whole document is rewritten (JSON): re-read whole.
  capabilities: { appendOnly: false, linesStandAlone: false, subagents: 'files', responseIds: 'session' },
  headlessStart: geminiStreamStart,
  discover: discoverGemini,
  streamRecords: (file, onEvent, options) => streamGeminiRecords(file, onEvent, options),
  typeResult: typeGeminiResult,
  canonicalToolName: canonicalGeminiToolName,
  // By name only: an MCP tool that 0.20 names bare, or a subagent call, is known once its result says so.
  kindOfTool: (canonicalName) => kindOfGeminiTool(canonicalName, { displayName: undefined, agentId: undefined }),
  typeInput: typeGeminiInput,
  durationsOf: timestampDurationsWithoutWaits,
});
