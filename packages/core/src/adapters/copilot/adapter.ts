import { defineAdapter } from '../../agents/adapter.js';
import type { DiscoverOptions } from '../../io/discover.js';
import { discoverCopilotFiles } from './discover.js';
import { copilotDurations } from './durations.js';
import { copilotHomes } from './homes.js';
import { streamCopilotRecords } from './stream.js';
import { canonicalCopilotToolName, kindOfCopilotTool } from './tool-names.js';
import { typeCopilotInput } from './type-input.js';
import { typeCopilotResult } from './type-result.js';

/**
 * GitHub Copilot CLI: `~/.copilot/session-state/<session id>/events.jsonl` (`$COPILOT_HOME`), read from 1.0.64
 * (wild) to 1.0.102 (recorded against a scripted model).
 */
export const copilotAdapter = defineAdapter({
  ...copilotHomes,
  // events.jsonl is only appended to (a resumed session appends `session.resume` and its turns to the same file); a
  // result needs its call's start line, so a read from an offset replays the earlier lines. Subagents (`task`) are
  // not recorded here yet.
  capabilities: { appendOnly: true, linesStandAlone: false, subagents: 'none', responseIds: 'unique' },
  discover: (root: string, options?: DiscoverOptions) => discoverCopilotFiles([root], options),
  streamRecords: (file, onEvent, options) => streamCopilotRecords(file.path, onEvent, options),
  typeResult: typeCopilotResult,
  durationsOf: copilotDurations,
  canonicalToolName: canonicalCopilotToolName,
  kindOfTool: kindOfCopilotTool,
  typeInput: typeCopilotInput,
});
