import { type ErrorCategory, type ErrorSeverity, isPersonsDecision, type ToolError } from '../../model/tool-error.js';

interface Rule {
  readonly category: ErrorCategory;
  readonly test: RegExp;
}

/*
 * Ordered rules over a failed tool part's `state.error`, written from the recorded 1.18.33 failures (edit: "Could
 * not find oldString in the file…"; read: "File not found: <path>"; an MCP tool's error text) and OpenCode's own
 * messages for a permission the person refused and an aborted call; the first match wins.
 */
const rules: readonly Rule[] = [
  { category: 'user-rejected', test: /rejected permission|user (?:rejected|denied|dismissed)|permission.*denied by/i },
  { category: 'interrupted', test: /aborted|cancelled|canceled|interrupted/i },
  {
    category: 'string-not-found',
    test: /Could not find oldString|oldString not found|found multiple matches|must be unique/i,
  },
  { category: 'file-not-found', test: /^File not found|no such file or directory|ENOENT|does not exist/i },
  { category: 'permission-denied', test: /permission denied|EACCES|outside (?:the )?(?:project|allowed)/i },
  { category: 'timeout', test: /timed out|timeout/i },
  { category: 'network', test: /fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|network error/i },
  { category: 'unknown-tool', test: /^Model tried to call unavailable tool|unknown tool|invalid tool/i },
  {
    category: 'validation',
    test: /Invalid (?:arguments|parameters|input)|is required|must be|is a directory|already exists|must read/i,
  },
];

/** Classify a failed OpenCode call by its message; the person's own refusal or interruption is expected. */
export function classifyOpenCodeError(message: string): ToolError {
  const category = rules.find((rule) => rule.test.test(message))?.category ?? 'other';
  const severity: ErrorSeverity = isPersonsDecision(category) ? 'expected' : 'error';
  return { category, severity, message };
}
