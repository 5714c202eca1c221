import { isRecord, num, str } from '../../internal/guards.js';
import { readShellExit, type ShellExit } from '../../results/shell-exit.js';
import { kindOfCopilotTool } from './tool-names.js';

/** `<shellId: 3 completed with exit code 2>`: the line the bash tool ends its output with. */
const SHELL_TRAILER = /\n?<shellId: ([^\s>]+) completed with exit code (-?\d+)>\s*$/;

/** What a shell call's output says: the command's own output, its exit code and shell, and what the code means. */
export interface ShellOutcome {
  readonly stdout: string;
  readonly exitCode: number | undefined;
  readonly shellId: string | undefined;
  /**
   * The command was left running in the background (the call's `mode`, or the result's telemetry, says `async` or
   * `detached`): its shell is a task `read_bash` and `stop_bash` name. A sync call's shell (the default) has an id too,
   * for the commands that keep typing into it, but nothing runs on once the call has answered.
   */
  readonly background: boolean;
  readonly exit: ShellExit;
}

/**
 * A shell call's outcome (undefined for other tools). The client calls a command that exits non-zero a success; the
 * exit code is 1.0.102's `shellExecution.exitCode`, else the output's last line (1.0.64), and is read as Claude
 * Code's Bash does (non-zero fails, except exit 1 of a last grep/rg/find).
 */
export function shellOutcomeOf(
  toolName: string,
  input: unknown,
  text: string,
  facts: Readonly<Record<string, unknown>>,
): ShellOutcome | undefined {
  if (kindOfCopilotTool(toolName) !== 'bash') return undefined;
  const trailer = SHELL_TRAILER.exec(text);
  const shell = isRecord(facts.shellExecution) ? facts.shellExecution : {};
  const exitCode = num(shell.exitCode) ?? (trailer?.[2] === undefined ? undefined : Number(trailer[2]));
  const args = isRecord(input) ? input : {};
  const telemetry =
    isRecord(facts.toolTelemetry) && isRecord(facts.toolTelemetry.properties) ? facts.toolTelemetry.properties : {};
  const mode = str(args.mode) ?? str(telemetry.executionMode);
  return {
    stdout: trailer === null ? text : text.slice(0, trailer.index),
    exitCode,
    shellId: trailer?.[1] ?? str(args.shellId),
    background: (mode !== undefined && mode !== 'sync') || args.detach === true || telemetry.detached === 'true',
    exit: readShellExit(str(args.command), exitCode),
  };
}
