/**
 * A call a hook stopped before it ran. Claude Code 2.x writes a `hook_progress` record for each PreToolUse hook it
 * runs on a call (`toolUseID` the call's); a hook that blocks it (exit 2) makes its stderr the call's error result,
 * in some clients (2.1.39) without the `PreToolUse:Bash hook error` words a rule could read. A shell call's failure
 * with no `Exit code N` line of the client's, after a PreToolUse hook ran on it, is the hook's: the command never ran
 * (a wild session's blocked `git commit` read as the commit failing, after 2 min 41 s of the hook's checks).
 * One rule for the loaded session and the streamed one.
 * @module
 */
import type { TranscriptRecord } from '../model/record.js';
import type { ToolResult } from '../model/tool-call.js';

/** The call a PreToolUse hook ran on, when `record` says a hook ran on one. */
export function preToolHookCallOf(record: TranscriptRecord): string | undefined {
  if (record.kind !== 'progress' || record.dataType !== 'hook_progress') return undefined;
  return record.data.hookEvent === 'PreToolUse' ? record.toolUseId : undefined;
}

/** `result` of a call a PreToolUse hook ran on: a failure the client gave no exit for is the hook's block. */
export function blockedByHook(result: ToolResult): ToolResult {
  const error = result.error;
  if (error === undefined || error.category !== 'exit-code' || error.exitCode !== undefined) return result;
  return { ...result, error: { ...error, category: 'hook-blocked' } };
}
