/** Why a tool call failed, and whether that is a real problem. */
export const errorCategories = [
  'file-not-read',
  'string-not-found',
  'file-not-found',
  'permission-denied',
  'user-rejected',
  'exit-code',
  'timeout',
  'interrupted',
  'not-running',
  'validation',
  'network',
  'unknown-tool',
  'hook-blocked',
  'api-error',
  'other',
] as const;
export type ErrorCategory = (typeof errorCategories)[number];

/** `expected`: part of normal work (stopping a shell that already ended, the user declining a plan). */
export const errorSeverities = ['expected', 'error'] as const;
export type ErrorSeverity = (typeof errorSeverities)[number];

/**
 * The failures that are the person's own decision, not the tool's: a call rejected, or interrupted (Esc, a cancel:
 * the person stopped it). Expected, as every agent's classifier says; they counted as the tool's errors (a review).
 */
export function isPersonsDecision(category: ErrorCategory): boolean {
  return category === 'user-rejected' || category === 'interrupted';
}

export interface ToolError {
  readonly category: ErrorCategory;
  readonly severity: ErrorSeverity;
  /** The message with any `<tool_use_error>` wrapper removed. */
  readonly message: string;
  /** For category `exit-code`: the command's exit code. */
  readonly exitCode?: number | undefined;
}

/**
 * A failed command's output: its `exit-code` error's message less the `Exit code N` line every adapter writes first
 * (`shellExitError`), the code being the error's `exitCode`.
 */
export function exitOutput(message: string): string {
  return message.replace(/^Exit code -?\d+\n?/, '');
}
