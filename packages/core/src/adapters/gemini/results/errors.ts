import {
  type ErrorCategory,
  type ErrorSeverity,
  isPersonsDecision,
  type ToolError,
} from '../../../model/tool-error.js';
import type { DataKind } from './kinds.js';

interface Rule {
  readonly category: ErrorCategory;
  readonly test: RegExp;
}

/*
 * Ordered rules over a failed call's message, written from every error of the Gemini corpus (0.20.2, 0.61.0) and
 * the wild files; the first match wins. The categories are the shared ones (Claude Code's classifier uses the
 * same set), so error rates compare across agents.
 */
const rules: readonly Rule[] = [
  { category: 'unknown-tool', test: /^Tool "[^"]*" not found/ },
  { category: 'interrupted', test: /\[Operation Cancelled\]|cancelled by user|User cancelled/i },
  { category: 'user-rejected', test: /User (?:rejected|denied|declined)|did not (?:approve|allow)/i },
  {
    category: 'string-not-found',
    test: /0 occurrences found for old_string|Could not find an exact match|could not find the string/i,
  },
  {
    category: 'permission-denied',
    // the client refusing a host by its own rule (private addresses: `[Blocked Host]`) is a policy, not the network
    test: /Path must be within one of the workspace directories|Path not in workspace|outside the allowed workspace|permission denied|EACCES|\[Blocked Host\]/i,
  },
  { category: 'file-not-found', test: /^File not found|no such file or directory|ENOENT|does not exist/i },
  { category: 'timeout', test: /timed out|timeout/i },
  {
    category: 'network',
    test: /fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|Request failed with status|network error/i,
  },
  // The MCP tool ran and answered with `isError` (a tool failure, as Codex's are `other`); a failure to reach the
  // server or to call the tool is an API error.
  { category: 'other', test: /^MCP tool '[^']*' reported tool error/ },
  { category: 'api-error', test: /^MCP error|^Error calling tool/ },
  {
    category: 'validation',
    test: /Path is a directory|Path must be absolute|params must|must have required property|must be|is not a valid|Invalid (?:parameters|arguments)|expected \d+ occurrences?|Failed to edit/i,
  },
];

/** Expected for a person's own decision (a rejection, a cancel); every other failure is an error. */
function severityOf(category: ErrorCategory): ErrorSeverity {
  return isPersonsDecision(category) ? 'expected' : 'error';
}

/** Classify a failed Gemini call (`status` error or cancelled) by its message. */
export function classifyGeminiError(
  kind: DataKind | undefined,
  message: string,
  status: string | undefined,
): Pick<ToolError, 'category' | 'severity'> {
  let category: ErrorCategory | undefined;
  for (const rule of rules) {
    if (rule.test.test(message)) {
      category = rule.category;
      break;
    }
  }
  if (category === undefined) {
    if (status === 'cancelled') category = 'interrupted';
    else if (kind === 'mcp') category = 'api-error';
    else category = 'other';
  }
  return { category, severity: severityOf(category) };
}
