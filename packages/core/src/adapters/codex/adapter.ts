import { defineAdapter } from '../../agents/adapter.js';
import type { DiscoverOptions } from '../../io/discover.js';
import { codexExecStart, discoverCodexFiles } from './discover.js';
import { codexDurations } from './durations.js';
import { codexHomes } from './homes.js';
import { streamCodexRecords } from './stream.js';
import { canonicalCodexToolName, kindOfCodexTool } from './tool-names.js';
import { typeCodexInput } from './type-input.js';
import { typeCodexResult } from './type-result.js';

/**
 * Codex CLI: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl` (`$CODEX_HOME`), every recorded version from the
 * legacy pre-`session_meta` files (Aug 2025) to 0.169.
 */
export const codexAdapter = defineAdapter({
  ...codexHomes,
  // Rollouts are only appended to (`exec resume` too); a read from an offset replays the earlier lines for state.
  // Spawned and review agents write their own rollout, discovered as subagent files of their parent session.
  capabilities: { appendOnly: true, linesStandAlone: false, subagents: 'files', responseIds: 'session' },
  headlessStart: codexExecStart,
  discover: (root: string, options?: DiscoverOptions) => discoverCodexFiles([root], options),
  streamRecords: (file, onEvent, options) => streamCodexRecords(file.path, onEvent, options, file.sessionId),
  typeResult: typeCodexResult,
  durationsOf: codexDurations,
  canonicalToolName: canonicalCodexToolName,
  kindOfTool: kindOfCodexTool,
  typeInput: typeCodexInput,
});
