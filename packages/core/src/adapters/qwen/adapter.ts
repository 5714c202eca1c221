import { defineAdapter } from '../../agents/adapter.js';
import type { DiscoverOptions } from '../../io/discover.js';
import { discoverQwenFiles } from './discover.js';
import { qwenDurations } from './durations.js';
import { qwenHomes } from './homes.js';
import { streamQwenRecords } from './stream.js';
import { canonicalQwenToolName, kindOfQwenTool } from './tool-names.js';
import { typeQwenInput } from './type-input.js';
import { typeQwenResult } from './type-result.js';

/**
 * Qwen Code (a Gemini CLI derivative): `~/.qwen/projects/<encoded cwd>/chats/<session id>.jsonl`, read from 0.24.4
 * (recorded against a scripted model). Durations: the timestamp delta (a call's record is stamped when its
 * response was written, its result when the tool finished) and the tool's own `duration_ms`.
 */
export const qwenAdapter = defineAdapter({
  ...qwenHomes,
  // Lines are only appended (a resumed session's turns go to the same file); an assistant line's response id is on
  // the line before it, so a read from an offset replays the earlier lines. Subagents are not recorded here yet.
  capabilities: { appendOnly: true, linesStandAlone: false, subagents: 'none', responseIds: 'unique' },
  discover: (root: string, options?: DiscoverOptions) => discoverQwenFiles([root], options),
  streamRecords: (file, onEvent, options) => streamQwenRecords(file.path, onEvent, options),
  typeResult: typeQwenResult,
  durationsOf: qwenDurations,
  canonicalToolName: canonicalQwenToolName,
  kindOfTool: kindOfQwenTool,
  typeInput: typeQwenInput,
});
