import { defineAdapter } from '../../agents/adapter.js';
import type { DiscoverOptions } from '../../io/discover.js';
import { discoverOpenCodeFiles } from './discover.js';
import { openCodeHomes } from './homes.js';
import { streamOpenCodeRecords } from './stream.js';
import { canonicalOpenCodeToolName, kindOfOpenCodeTool } from './tool-names.js';
import { typeOpenCodeInput } from './type-input.js';
import { typeOpenCodeResult } from './type-result.js';

/**
 * OpenCode: `~/.local/share/opencode/opencode.db` (1.2 and later: tables `session`, `message`, `part`; read from
 * 1.18.33, recorded against a scripted model) and the older `storage/` JSON tree, each session read through a
 * snapshot file of AgentDash's own (`snapshot.ts`). Durations: a tool part's own `state.time.start` → `end` (the
 * call's and result's timestamps).
 */
export const openCodeAdapter = defineAdapter({
  ...openCodeHomes,
  // A session's rows change in place (a tool part goes from running to completed): its snapshot is rewritten and
  // read whole. A part needs its message's line. A subagent (task tool) is a child session: its own snapshot.
  capabilities: { appendOnly: false, linesStandAlone: false, subagents: 'files', responseIds: 'unique' },
  discover: (root: string, options?: DiscoverOptions) => discoverOpenCodeFiles(root, options),
  streamRecords: (file, onEvent, options) => streamOpenCodeRecords(file.path, file.agentId, onEvent, options),
  typeResult: typeOpenCodeResult,
  canonicalToolName: canonicalOpenCodeToolName,
  kindOfTool: kindOfOpenCodeTool,
  typeInput: typeOpenCodeInput,
});
