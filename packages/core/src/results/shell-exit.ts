import type { ToolError } from '../model/tool-error.js';
import { classifyError } from './classify-error.js';

/**
 * Commands whose exit 1 is an answer, not a failure, as Claude Code's Bash tool reads them: it writes such a
 * result as a success with `returnCodeInterpretation` (seen in the wild transcripts: grep/rg "No matches found",
 * find "Some directories were inaccessible"); 2 and above are failures.
 */
const exitOneMeans = {
  grep: 'No matches found',
  egrep: 'No matches found',
  fgrep: 'No matches found',
  rg: 'No matches found',
  find: 'Some directories were inaccessible',
} as const satisfies Record<string, string>;

/** What a shell command's exit code says: a failed call, or a success (with Claude Code's reading of a non-zero exit). */
export type ShellExit =
  | { readonly failed: true; readonly interpretation?: never }
  | { readonly failed: false; readonly interpretation: string | undefined };

/**
 * Read an exit code the way Claude Code's Bash tool does, for agents whose clients write only the code (Codex,
 * Gemini): 0 or unknown is a success, a non-zero exit a failed call, except exit 1 of a command in `exitOneMeans`
 * when it ends the command line (the last command of a pipeline or list sets the exit code).
 */
export function readShellExit(command: string | undefined, exitCode: number | undefined): ShellExit {
  if (exitCode === undefined || exitCode === 0) return { failed: false, interpretation: undefined };
  const name = exitCode === 1 ? lastCommandName(command ?? '') : undefined;
  const interpretation = name === undefined ? undefined : exitOneMeans[name];
  return interpretation === undefined ? { failed: true } : { failed: false, interpretation };
}

/**
 * The error of a command that exited non-zero, classified as Claude Code's Bash failures are (its message in Claude
 * Code's wording, `Exit code N` then the output): category `exit-code` with the code, or what the output says
 * (a timeout, an interruption).
 */
export function shellExitError(exitCode: number, output: string): ToolError {
  const message = output.trim() === '' ? `Exit code ${exitCode}` : `Exit code ${exitCode}\n${output.trimEnd()}`;
  return { ...classifyError('bash', message, false), message };
}

function lastCommandName(command: string): keyof typeof exitOneMeans | undefined {
  // Redirections (`2>&1`, `&>`) are not list operators.
  const segments = listSegments(command.replace(/\d*[<>]&\d*-?|&>>?/g, ' '));
  if (segments === undefined) return undefined;
  const words = (segments.filter((s) => s.trim() !== '').at(-1) ?? '').trim().split(/\s+/);
  // Leading assignments (`LC_ALL=C grep …`) and a path (`/usr/bin/grep`) do not change the command.
  const name = (words.find((w) => !/^\w+=/.test(w)) ?? '').replace(/^.*\//, '');
  return Object.hasOwn(exitOneMeans, name) ? (name as keyof typeof exitOneMeans) : undefined;
}

/**
 * A command line cut at its list and pipeline operators (`| ; & && || newline`) outside quotes: an operator inside
 * `'…'`, `"…"`, after a backslash, or inside a command substitution (`$(…)`, `` `…` ``) is not the line's, so
 * `rg -n "foo|bar" src` is one command. Undefined when the line does not scan (a quote or substitution left open):
 * its last command is not known.
 */
function listSegments(command: string): string[] | undefined {
  const segments: string[] = [];
  // Open quotes and substitutions, innermost last.
  const open: ("'" | '"' | '`' | '$(' | '(')[] = [];
  let start = 0;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    const inner = open.at(-1);
    if (inner === "'") {
      if (c === "'") open.pop();
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (inner === '`') {
      if (c === '`') open.pop();
      continue;
    }
    if (c === '$' && command[i + 1] === '(') {
      open.push('$(');
      i++;
    } else if (c === '`') open.push('`');
    else if (inner === '"') {
      if (c === '"') open.pop();
    } else if (c === "'" || c === '"') open.push(c);
    else if (inner === '$(' || inner === '(') {
      if (c === '(') open.push('(');
      else if (c === ')') open.pop();
    } else if (c === '|' || c === '&' || c === ';' || c === '\n') {
      segments.push(command.slice(start, i));
      // `||`, `&&`, `;;` and `|&` are one operator.
      if ((command[i + 1] === c && c !== '\n') || (c === '|' && command[i + 1] === '&')) i++;
      start = i + 1;
    }
  }
  if (open.length > 0) return undefined;
  segments.push(command.slice(start));
  return segments;
}
