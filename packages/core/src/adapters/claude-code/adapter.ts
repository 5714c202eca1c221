import { defineAdapter } from '../../agents/adapter.js';
import { timestampAndReportedDurations } from '../../agents/durations.js';
import { discoverFiles } from '../../io/discover.js';
import { embeddedRecordOf } from './embedded.js';
import { claudeHomes } from './homes.js';
import { streamRecords } from './read-records.js';
import { kindOfTool } from './results/tools/index.js';
import { typeResult } from './results/type-result.js';
import { canonicalToolName } from './tool-names.js';
import { typeInput } from './type-input.js';

/** Claude Code: `~/.claude/projects/<project>/<session>.jsonl` and its subagent files, every client version. */
export const claudeCodeAdapter = defineAdapter({
  ...claudeHomes,
  // Sidechains in the main file up to 2.0.27, `agent-*.jsonl` files since: discovery finds both.
  capabilities: { appendOnly: true, linesStandAlone: true, subagents: 'files', responseIds: 'unique' },
  mainFileName: (sessionId) => `${sessionId}.jsonl`,
  discover: (root, options) => discoverFiles([root], options),
  streamRecords: (file, onEvent, options) => streamRecords(file.path, onEvent, options),
  typeResult,
  durationsOf: timestampAndReportedDurations,
  canonicalToolName,
  kindOfTool,
  typeInput,
  embeddedRecordOf,
});
