import { isRecord, num } from '../../internal/guards.js';
import type { ResultContent } from '../../model/content.js';
import type { ToolError } from '../../model/tool-error.js';
import { type ErrorCategory, type ErrorSeverity, isPersonsDecision } from '../../model/tool-error.js';
import { readShellExit, type ShellExit, shellExitError } from '../../results/shell-exit.js';
import { canonicalCodexToolName, MULTI_AGENT_TOOLS, SHELL_TOOLS } from './tool-names.js';
import { typeCodexInput } from './type-input.js';

/** A failed Codex call: why, in the categories every agent shares. */
export interface CodexFailure {
  readonly category: ErrorCategory;
  readonly severity: ErrorSeverity;
  readonly message: string;
}

/** What a denial of the sandbox leaves in a command's output, or the sandbox's own words. */
const SANDBOX_DENIAL_WORDS = /Operation not permitted|Permission denied|Read-only file system|sandbox error/;
const SANDBOX_DENIAL = new RegExp(`^(?:failed in sandbox|sandbox denied)[\\s\\S]*(?:${SANDBOX_DENIAL_WORDS.source})`);

/**
 * Messages the Codex client writes as a call's whole output when the call failed (never a command's own output);
 * `tools`: only those tools' outputs (a message of the multi-agent tools is another tool's ordinary answer).
 */
const RULES: readonly {
  readonly test: RegExp;
  readonly category: ErrorCategory;
  readonly tools?: ReadonlySet<string>;
}[] = [
  { test: /^unsupported call: /, category: 'unknown-tool' },
  { test: /^failed to parse function arguments/, category: 'validation' },
  { test: /^apply_patch verification failed: Failed to find expected lines/, category: 'string-not-found' },
  { test: /^apply_patch verification failed: Failed to read file.*No such file/s, category: 'file-not-found' },
  { test: /^apply_patch verification failed/, category: 'validation' },
  // The same failures as 0.3x–0.4x wrote them, a patch tool's or a shell's `apply_patch` heredoc's whole output
  // (../shared/wild-agents openprintkit-1, ocodex-1).
  { test: /^error: Failed to find expected lines/, category: 'string-not-found' },
  { test: /^error: Failed to read file.*No such file/s, category: 'file-not-found' },
  { test: /^error: (?:invalid hunk at line \d+|invalid patch)/, category: 'validation' },
  { test: /^(?:Wall time: [^\n]*\n)?aborted by user/, category: 'interrupted' },
  // An approval the user declined (codex-rs `ReviewDecision::Denied`): a patch (0.41, ../shared/wild-agents
  // agentcmd-1) or a command.
  { test: /^(?:patch|exec command) rejected by user/, category: 'user-rejected' },
  { test: /^unable to locate image at /, category: 'file-not-found' },
  {
    test: /^(?:failed in sandbox \S+ with )?execution error: .*(?:timed out|Timeout)|^command timed out/s,
    category: 'timeout',
  },
  // A sandbox's failure without an exit code (0.2x: `failed in sandbox: <stderr>`): a denial when the sandbox's words
  // say so or it killed the command, else a command that failed.
  { test: SANDBOX_DENIAL, category: 'permission-denied' },
  { test: /^Permission denied/, category: 'permission-denied' },
  { test: /^failed in sandbox/, category: 'other' },
  { test: /^execution error: /, category: 'other' },
  { test: /^(?:err: "?)?tool call error: /, category: 'other' },
  { test: /^\S+ is unavailable in \S+ mode/, category: 'validation' },
  { test: /^\w+ failed: Unknown process id/, category: 'not-running' },
  { test: /^\w+ failed: /, category: 'other' },
  // The multi-agent tools' refusals (spawn_agent, send_input, wait, close_agent): `collab_spawn_error`,
  // `collab_agent_error` in codex-rs.
  { test: /^collab (?:\w+ failed: |manager unavailable)/, category: 'other', tools: MULTI_AGENT_TOOLS },
  { test: /^agent with id \S+ (?:not found|is closed)/, category: 'not-running', tools: MULTI_AGENT_TOOLS },
];

/**
 * A spawn the client refused in plain text: a spawn's answer is JSON (v1 `{"agent_id": …}`, v2 `{"task_name": …}`),
 * a refusal is not (0.145, ../shared/wild-agents entire-graph-6: "Full-history forked agents inherit the parent agent
 * type; …"), classified as the multi-agent tools' other refusals (`collab spawn failed: …`).
 */
function refusedSpawn(name: string, text: string): boolean {
  if (name !== 'spawn_agent' || text === '') return false;
  try {
    const answer: unknown = JSON.parse(text);
    return typeof answer !== 'object' || answer === null;
  } catch {
    return true;
  }
}

/** The `style` of a `codex exec --json` command result: its exit code is the event's own (`decode-exec.ts`). */
export const EXEC_EVENT_STYLE = 'exec-event';

/**
 * A command's own output (under an exit-code header, in shell metadata, or an exec event's): never read as a client
 * message.
 */
export function isCommandOutput(toolName: string, style: string | undefined): boolean {
  return (
    style === 'exit-code-header' ||
    style === EXEC_EVENT_STYLE ||
    style === 'chunk-header' ||
    ((style === 'json-metadata' || style === 'sandbox-exit') && SHELL_TOOLS.has(canonicalCodexToolName(toolName)))
  );
}

/**
 * What a shell call's exit code says (`exit_code` in 0.50's metadata or an exec event, `Exit code: N` or `Process
 * exited with code N` in the output's header), read as Claude Code reads its Bash exits; undefined for another tool
 * or an output that is not the command's own (a client message such as "aborted by user").
 */
export function codexShellExitOf(
  toolName: string,
  input: unknown,
  exitCode: number | undefined,
  style: string | undefined,
): ShellExit | undefined {
  const name = canonicalCodexToolName(toolName);
  // A script (0.144+) that printed a command's result (`printedCommandExit`): the command is its one literal command
  // line, when it has one (grep's exit 1 is an answer), else unknown.
  if (name === 'exec' && style === 'blocks' && exitCode !== undefined) {
    const commands = (typeCodexInput(name, input).commands as readonly string[] | undefined) ?? [];
    return readShellExit(commands.length === 1 ? commands[0] : undefined, exitCode);
  }
  // 0.144+ puts the header in the first of the output's blocks.
  if (!SHELL_TOOLS.has(name) || !(isCommandOutput(toolName, style) || style === 'blocks')) return undefined;
  return readShellExit(typeCodexInput(name, input).command, exitCode);
}

/**
 * The command result an `exec` script (0.144+) printed whole, as `text(JSON.stringify(await tools.exec_command({cmd:
 * …})))` prints one (`{"chunk_id":…,"wall_time_seconds":…,"exit_code":1,"output":…}`, ../shared/wild-agents
 * entire-graph-5): the first that exited non-zero, else the first; undefined when the script printed none (its own
 * words are no exit).
 */
export function printedCommandResult(
  content: ResultContent,
): { readonly exitCode: number; readonly output: string } | undefined {
  if (typeof content === 'string') return undefined;
  let first: { exitCode: number; output: string } | undefined;
  for (const block of content) {
    if (block.kind !== 'text') continue;
    const text = block.text.trim();
    if (!text.startsWith('{') || !text.includes('"exit_code"') || text.length > MAX_PRINTED_RESULT) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    const exitCode = isRecord(value) && typeof value.output === 'string' ? num(value.exit_code) : undefined;
    if (exitCode === undefined) continue;
    const result = { exitCode, output: (value as { output: string }).output };
    if (exitCode !== 0) return result;
    first ??= result;
  }
  return first;
}

/** An output's exit code: its header's or metadata's, else for an `exec` script the commands' it printed. */
export function codexExitCodeOf(
  toolName: string,
  output: { readonly exitCode: number | undefined; readonly content: ResultContent },
): number | undefined {
  if (output.exitCode !== undefined) return output.exitCode;
  return canonicalCodexToolName(toolName) === 'exec' ? printedCommandResult(output.content)?.exitCode : undefined;
}

/** A printed result longer than this (characters) is not parsed to find its exit code. */
const MAX_PRINTED_RESULT = 4 * 1024 * 1024;

/** The line Codex ends a command's output with when the call's time limit (`timeout_ms`) killed it. */
const CODEX_TIMEOUT = /(?:^|\n)command timed out after \d+ milliseconds\s*$/;

/**
 * A command's failure with its exit code, as Claude Code's Bash failures are classified (`shellExitError`); a
 * sandbox's report of a non-zero exit (`sandbox-exit`, clients up to 0.46) is a denial when the output says one.
 */
export function codexShellError(exitCode: number, text: string, style: string | undefined): ToolError {
  const error = shellExitError(exitCode, text);
  // Codex's own words when the call's time limit killed the command (exit 124), after whatever it printed
  if (exitCode === 124 && CODEX_TIMEOUT.test(text)) return { ...error, category: 'timeout' };
  // the sandbox's words in the command's stderr, not in its stdout (a test run that prints "Permission denied")
  const stderr = text.slice(text.lastIndexOf(', stderr: ') + 1);
  return style === 'sandbox-exit' && text.includes(', stderr: ') && SANDBOX_DENIAL_WORDS.test(stderr)
    ? { ...error, category: 'permission-denied' }
    : error;
}

/**
 * Whether a call failed, from the client's failure messages (whole outputs such as "unsupported call: …") and from
 * the failure flags of its events (`patch_apply_end.success: false`, an MCP call's `status: "failed"`). A command
 * that exits non-zero is a failed call too (`codexShellExitOf`), classified as Claude Code's Bash failures are.
 */
export function codexFailureOf(
  toolName: string,
  text: string,
  flaggedFailed: boolean,
  clientText: boolean,
): CodexFailure | undefined {
  const trimmed = text.trimStart();
  const name = canonicalCodexToolName(toolName);
  // A command's own output (under an exit-code header or in shell metadata) is never read as a client message.
  const rule = clientText
    ? RULES.find((r) => (r.tools === undefined || r.tools.has(name)) && r.test.test(trimmed))
    : undefined;
  const refused = clientText && rule === undefined && refusedSpawn(name, trimmed);
  if (rule === undefined && !refused && !flaggedFailed) return undefined;
  const category = rule?.category ?? 'other';
  const message = trimmed.replace(/^Wall time: [^\n]*\n/, '').trim();
  // Expected as Claude Code's are: the person's decision (a rejection, an interruption), and writing to or closing a
  // process or agent that already ended (Claude's BashOutput, KillShell and TaskStop on a finished shell).
  return {
    category,
    severity: isPersonsDecision(category) || category === 'not-running' ? 'expected' : 'error',
    message,
  };
}
