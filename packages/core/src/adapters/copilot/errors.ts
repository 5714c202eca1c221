import { type ErrorCategory, type ErrorSeverity, isPersonsDecision, type ToolError } from '../../model/tool-error.js';

interface Rule {
  readonly category: ErrorCategory;
  readonly test: RegExp;
}

/*
 * Ordered rules over a failed call's `error.message` (`success: false`), written from the recorded 1.0.102 failures
 * and the wild 1.0.64 ones; the first match wins. The categories are the shared ones, so error rates compare across
 * agents.
 */
const rules: readonly Rule[] = [
  { category: 'hook-blocked', test: /Denied by (?:pre|post)ToolUse hook|hook errored/i },
  {
    category: 'user-rejected',
    test: /user (?:rejected|denied|declined)|did not (?:approve|allow)|Permission denied by user/i,
  },
  { category: 'interrupted', test: /aborted|cancelled|canceled|interrupted/i },
  {
    category: 'not-running',
    test: /was already stopped|no (?:such )?shell|shellId: \S+ (?:not found|is not running)/i,
  },
  {
    category: 'string-not-found',
    test: /^No match found|old_str .*not found|did not appear verbatim|Multiple matches/i,
  },
  { category: 'file-not-found', test: /^Path does not exist|no such file or directory|ENOENT|does not exist/i },
  { category: 'permission-denied', test: /permission denied|EACCES|outside (?:the )?allowed|not allowed to access/i },
  { category: 'timeout', test: /timed out|timeout/i },
  { category: 'network', test: /fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|network error/i },
  { category: 'unknown-tool', test: /^Tool '[^']*' (?:does not exist|not found)|unknown tool/i },
  // The MCP tool ran and answered with `isError`, as Codex's and Gemini's are `other`.
  { category: 'other', test: /^MCP server '[^']*': / },
  {
    category: 'validation',
    test: /Invalid (?:arguments|parameters|input)|is required|must be|Path is a directory|already exists/i,
  },
];

/**
 * Classify a failed Copilot CLI call by its message; a person's own decision (a rejection, an interruption) or a
 * stopped shell is expected.
 */
export function classifyCopilotError(message: string): ToolError {
  const category = rules.find((rule) => rule.test.test(message))?.category ?? 'other';
  const severity: ErrorSeverity = isPersonsDecision(category) || category === 'not-running' ? 'expected' : 'error';
  return { category, severity, message };
}
