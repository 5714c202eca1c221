import { isRecord, str } from '../../../internal/guards.js';
import { readShellExit, type ShellExit } from '../../../results/shell-exit.js';
import { canonicalGeminiToolName, geminiToolKinds } from '../tool-names.js';
import type { GeminiResultContext } from './context.js';
import { unwrapUntrusted } from './context.js';

/** A `run_shell_command` output, as the client formats it for the model. */
export interface ShellOutput {
  readonly command: string | undefined;
  readonly directory: string | undefined;
  readonly output: string;
  readonly error: string | undefined;
  readonly exitCode: number | undefined;
  readonly signal: string | undefined;
  readonly backgroundPids: string | undefined;
}

const TRAILER = /^(Error|Exit Code|Signal|Background PIDs|Process Group PGID): ?(.*)$/;
const LEADER = /^(Command|Directory): ?(.*)$/;

/**
 * Parse the shell tool's text: `Command:`/`Directory:` (0.20), `Output:` (several lines), then `Error:`,
 * `Exit Code:`, `Signal:`, `Background PIDs:`, `Process Group PGID:`. 0.61 writes only `Output:` and the PGID, and
 * `Exit Code:` only when it is not 0. Undefined when the text has no `Output:` line.
 */
export function parseShellOutput(text: string): ShellOutput | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('Output:'));
  if (start < 0) return undefined;
  const fields = new Map<string, string>();
  for (const line of lines.slice(0, start)) {
    const m = LEADER.exec(line);
    if (m) fields.set(m[1] ?? '', m[2] ?? '');
  }
  let end = lines.length;
  while (end > start + 1) {
    const m = TRAILER.exec(lines[end - 1] ?? '');
    if (!m) break;
    fields.set(m[1] ?? '', m[2] ?? '');
    end -= 1;
  }
  const body = [(lines[start] ?? '').replace(/^Output: ?/, ''), ...lines.slice(start + 1, end)].join('\n');
  const code = fields.get('Exit Code');
  const exitCode = code === undefined ? 0 : /^-?\d+$/.test(code.trim()) ? Number(code) : undefined;
  return {
    command: fields.get('Command'),
    directory: fields.get('Directory'),
    output: body === '(empty)' ? '' : body,
    error: none(fields.get('Error')),
    exitCode,
    signal: none(fields.get('Signal')),
    backgroundPids: none(fields.get('Background PIDs')),
  };
}

function none(value: string | undefined): string | undefined {
  return value === undefined || value === '(none)' || value === '' || value === '0' ? undefined : value;
}

/**
 * What a shell call's `Exit Code: N` says (the client calls it a success whatever the code), read as Claude Code
 * reads its Bash exits; undefined for another tool or an output without the shell's fields.
 */
export function geminiShellExitOf(
  toolName: string,
  args: unknown,
  text: string,
): (ShellExit & { readonly exitCode: number; readonly output: ShellOutput }) | undefined {
  if (geminiToolKinds[canonicalGeminiToolName(toolName)] !== 'bash') return undefined;
  const output = parseShellOutput(unwrapUntrusted(text));
  if (output?.exitCode === undefined) return undefined;
  const command = (isRecord(args) ? str(args.command) : undefined) ?? output.command;
  return { ...readShellExit(command, output.exitCode), exitCode: output.exitCode, output };
}

/** `run_shell_command` → `bash`: its streams and exit code (a non-zero exit is a failed call, typed apart). */
export function shellData(ctx: GeminiResultContext): unknown {
  const parsed = parseShellOutput(ctx.text);
  if (parsed === undefined) {
    return { stdout: typeof ctx.display === 'string' ? ctx.display : ctx.text, stderr: '', interrupted: false };
  }
  return {
    stdout: parsed.output,
    stderr: parsed.error ?? '',
    exitCode: parsed.exitCode,
    returnCodeInterpretation: readShellExit(str(ctx.args.command) ?? parsed.command, parsed.exitCode).interpretation,
    interrupted: parsed.signal !== undefined,
    backgroundTaskId: parsed.backgroundPids,
  };
}
