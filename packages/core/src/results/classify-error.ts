import { type ErrorCategory, type ErrorSeverity, isPersonsDecision, type ToolError } from '../model/tool-error.js';
import type { DataKind } from '../model/typed-result.js';

interface Rule {
  readonly category: ErrorCategory;
  readonly test: RegExp;
  /** Only for these kinds (default: every tool). */
  readonly kinds?: readonly (DataKind | 'none')[];
  /** The agent expected it whatever the category says (a call cancelled because another failed). */
  readonly expected?: true;
}

/*
 * Ordered rules over the unwrapped message. Written from every error result of the corpus (1.0.128, 2.0.50,
 * 2.0.76, 2.1.330) and the messages FORMAT.md §5 lists. The first match wins.
 */
const rules: readonly Rule[] = [
  { category: 'unknown-tool', test: /No such tool available/ },
  // Claude Code cancels the other calls of a parallel batch once one fails: the failure is that one's, counted there.
  { category: 'interrupted', test: /^Sibling tool call errored/, expected: true },
  { category: 'validation', test: /^InputValidationError\b/ },
  {
    category: 'interrupted',
    test: /\[Request interrupted by user|Command was aborted before completion|doesn't want to take this action right now|Interrupted by user/i,
  },
  {
    category: 'user-rejected',
    test: /doesn't want to proceed with this tool use|User rejected tool use|tool use was rejected|^User (?:declined|rejected)/i,
  },
  // Print mode denies ask-type prompts with the prompt's own text.
  { category: 'user-rejected', test: /^Exit plan mode\?$/, kinds: ['exit-plan-mode'] },
  { category: 'user-rejected', test: /^Answer questions\?$/, kinds: ['ask-user-question'] },
  {
    category: 'hook-blocked',
    test: /(?:PreToolUse|PostToolUse)\S* hook|operation blocked by hook|blocked by (?:a |the )?hook|Execution stopped by \S+ hook|hook error/i,
  },
  { category: 'timeout', test: /(?:^|\n)Command timed out/ },
  {
    category: 'permission-denied',
    test: /requested permissions to|haven't granted it yet|requires approval|needs approval|^Denied by|Permission to use \S+ (?:has been )?denied|while in plan mode|permission denied/i,
  },
  { category: 'file-not-read', test: /has not been read yet|modified since (?:it was )?(?:last )?read/i },
  { category: 'string-not-found', test: /String to replace not found/ },
  {
    category: 'file-not-found',
    test: /^File does not exist|^(?:Directory|Path) does not exist|^ENOENT|no such file or directory/i,
    kinds: ['read', 'write', 'edit', 'multi-edit', 'notebook-edit', 'glob', 'grep', 'ls', 'lsp', 'none'],
  },
  {
    category: 'not-running',
    test: /is not running|No shell found|No task found|already (?:completed|finished|exited|killed)/i,
  },
  {
    category: 'network',
    test: /Request failed with status code|Unable to verify if domain|EPROTO|SSL routines|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|socket hang up|fetch failed|certificate|Maximum redirects|Network error/i,
  },
  { category: 'timeout', test: /timed out|timeout/i },
  { category: 'validation', test: /Input validation error|Invalid arguments/i },
  { category: 'api-error', test: /^MCP error|^API Error|^Error calling tool/ },
  // The resource tools are the client's own calls to a server: a server it does not know, a listing this build does
  // not do, are its failures to call it, as `MCP error …` is (not an agent type's "not found. Available …").
  {
    category: 'api-error',
    test: /[\s\S]/,
    kinds: ['list-mcp-resources', 'read-mcp-resource', 'read-mcp-resource-dir'],
  },
  {
    category: 'validation',
    test: /Found \d+ matches of the string to replace|No changes to make|exceeds maximum allowed (?:size|tokens)|EISDIR|illegal operation on a directory|^Unknown (?:skill|slash command|command)|not found\. Available|^Invalid|Cell with ID .* not found|No scheduled job with id|^No-op:|not enabled in this build|rejected the pattern|is not a valid|must be/i,
  },
];

/**
 * A shell command's failure. Its message is the command's output under Claude Code's `Exit code N` line (2.x; or the
 * output alone, 1.0.x), so only what the client itself writes, at the message's start, says more than its exit:
 * words anywhere in a command's output ("certificate" in a type checker's report, "permission denied" from `ls`, a
 * test's "timed out") are the command's, not a network, a permission or a timeout of the call.
 */
const shellRules: readonly Rule[] = [
  { category: 'unknown-tool', test: /^(?:Error: )?No such tool available/ },
  { category: 'interrupted', test: /^Sibling tool call errored/, expected: true },
  { category: 'validation', test: /^InputValidationError\b/ },
  {
    category: 'interrupted',
    // an aborted command's output ends with the client's `<error>` line
    test: /^\[Request interrupted by user|^Command was aborted before completion|<error>Command was aborted before completion<\/error>|^Interrupted by user|doesn't want to take this action right now/i,
  },
  {
    category: 'user-rejected',
    test: /doesn't want to proceed with this tool use|^User rejected tool use|tool use was rejected|^User (?:declined|rejected)/i,
  },
  {
    category: 'hook-blocked',
    test: /^(?:PreToolUse|PostToolUse)\S* hook|^\S+ operation blocked by hook|^Execution stopped by \S+ hook/i,
  },
  { category: 'timeout', test: /^Command timed out/ },
  {
    category: 'permission-denied',
    test: /^[^\n]*(?:requested permissions to|haven't granted it yet|while in plan mode)|^This command requires approval|^\S+ in '[^'\n]*' needs approval|^Denied by|^Permission to use \S+ (?:has been )?denied/i,
  },
];

/** A shell command's failure (`shellRules`): `exit-code` unless the client says why before any output. */
function shellCategory(message: string): { readonly category: ErrorCategory; readonly expected: boolean } {
  const header = /^Exit code -?\d+(?:\n|$)/.exec(message);
  if (header !== null) {
    // the command ran: its exit, or the client's timeout line right after the code (2.1.x: `Exit code 143`)
    return {
      category: /^Command timed out/.test(message.slice(header[0].length)) ? 'timeout' : 'exit-code',
      expected: false,
    };
  }
  const rule = shellRules.find((r) => r.test.test(message));
  // 1.0.x prints only the output (or "Error") on a failure
  return { category: rule?.category ?? 'exit-code', expected: rule?.expected === true };
}

/** Severity: expected for a person's decision and for stopping or reading a shell that already ended. */
function severityOf(category: ErrorCategory, kind: DataKind | undefined): ErrorSeverity {
  if (isPersonsDecision(category)) return 'expected';
  if (category === 'not-running' && (kind === 'task-stop' || kind === 'task-output')) return 'expected';
  return 'error';
}

/**
 * Classify an error result. `message` is the unwrapped text; `wrapped` says whether it came in a
 * `<tool_use_error>` (the client uses that wrapper only for validation and precondition errors).
 */
export function classifyError(
  kind: DataKind | undefined,
  message: string,
  wrapped: boolean,
): Pick<ToolError, 'category' | 'severity' | 'exitCode'> {
  const k = kind ?? 'none';
  let category: ErrorCategory | undefined;
  let expected = false;
  if (k === 'bash') ({ category, expected } = shellCategory(message));
  else
    for (const rule of rules) {
      if (rule.kinds && !rule.kinds.includes(k)) continue;
      if (rule.test.test(message)) {
        category = rule.category;
        expected = rule.expected === true;
        break;
      }
    }
  if (category === undefined) {
    // An MCP tool that ran and answered with `isError` (its message is the tool's own, "fail tool failed: …", or
    // what its handler threw): a tool failure, `other` as Gemini's and Codex's are. A failure to reach the server or
    // call the tool says `MCP error …` (the rules above). The resource tools are the client's own calls to a server.
    if (kind === 'mcp') category = 'other';
    else if (wrapped) category = 'validation';
    else category = 'other';
  }
  const code = /^Exit code (-?\d+)/.exec(message);
  return {
    category,
    severity: expected ? 'expected' : severityOf(category, kind),
    exitCode: code && (category === 'exit-code' || category === 'timeout') ? Number(code[1]) : undefined,
  };
}
