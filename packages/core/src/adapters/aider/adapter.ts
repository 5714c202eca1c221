import { defineAdapter } from '../../agents/adapter.js';
import type { DiscoverOptions } from '../../io/discover.js';
import { discoverAiderFiles } from './discover.js';
import { aiderHomes } from './homes.js';
import { streamAiderRecords } from './stream.js';
import { canonicalAiderToolName, kindOfAiderTool } from './tool-names.js';
import { typeAiderInput } from './type-input.js';
import { typeAiderResult } from './type-result.js';

/**
 * Aider: `.aider.chat.history.md` in each repository it ran in (one file, runs appended), read from public
 * repositories' committed files (its client could not be run here). Tokens and cost only as Aider's rounded report;
 * no per-message times (only each run's start, local time).
 */
export const aiderAdapter = defineAdapter({
  ...aiderHomes,
  // Appended to, but an edit's outcome is lines below it: a changed file is read from its start.
  capabilities: { appendOnly: false, linesStandAlone: false, subagents: 'none', responseIds: 'session' },
  discover: (root: string, options?: DiscoverOptions) => discoverAiderFiles(root, options),
  streamRecords: (file, onEvent, options) => streamAiderRecords(file.path, onEvent, options),
  typeResult: typeAiderResult,
  canonicalToolName: canonicalAiderToolName,
  kindOfTool: kindOfAiderTool,
  typeInput: typeAiderInput,
});
