/**
 * One-line, human summaries of tool calls: `Edit src/a.ts +3 −1`, `Bash npm test → exit 1`, `Grep "foo" in src`.
 * Pure functions over the call's kind, typed input and typed result, so every agent's calls read alike (Codex
 * `shell`, Gemini `run_shell_command` and Claude `Bash` are all `bash`); the one rule for the index (stored per
 * call), the CLI and the dashboard (which shows the tool's name apart and the detail from {@link callDetail}).
 * @module
 */

import { parseApplyPatch } from '../model/apply-patch.js';
import type { CallInput } from '../model/call-input.js';
import { lineCount } from '../model/line-count.js';
import { replacementDelta } from './line-diff.js';
import { plural } from './numbers.js';
import { relativePath } from './paths.js';
import { oneLine } from './text.js';

export interface SummarizableCall {
  readonly name: string;
  readonly canonicalName: string;
  /** The kind the agent's adapter types the tool's results onto, known before its result (`ToolCall.toolKind`). */
  readonly toolKind?: string | null | undefined;
  /** The raw input: only read, generically, for tools no kind describes. */
  readonly input: unknown;
  /** The input under the shared names (`ToolCall.typedInput`), which every adapter fills. */
  readonly typedInput?: CallInput | undefined;
  /** The subject of the task a TaskUpdate or TaskGet names (`ToolCall.taskSubject`), when the session gave it. */
  readonly taskSubject?: string | null | undefined;
  readonly result?:
    | {
        readonly isError: boolean;
        /** Core's typed result (`{kind, data}`), when known. */
        readonly typed?: unknown;
        readonly error?: { readonly category: string; readonly exitCode?: number | undefined } | null | undefined;
      }
    | null
    | undefined;
}

function isObj(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function s(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
function n(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Lines of a text, as a file has them: a trailing newline ends the last line, it does not start one. */
export function countLines(text: string | undefined): number {
  return text === undefined ? 0 : lineCount(text);
}

/** The lines a file read showed: the first, the last, and the file's total when the client gave it. */
export interface ReadSpan {
  readonly start: number;
  readonly end: number;
  readonly total: number | undefined;
}

/**
 * The span of a read's `text` starting at line `start`: its typed counts, which are file lines (Claude Code's own,
 * which take the empty text after a file's final newline for a line, are mended once, when the result is typed:
 * `fileLines` in its `results/tools/files.ts`), else the text's lines as `countLines` counts them.
 */
export function readSpan(text: string, start: number, numLines?: number, totalLines?: number): ReadSpan {
  const lines = numLines ?? countLines(text);
  return { start, end: start + Math.max(0, lines - 1), total: totalLines };
}

/**
 * Added/removed line counts of an edit: from the typed result when it has them, else from the strings asked for, as
 * their line diff gives them (`replacementDelta`); none for an edit that failed (it changed nothing).
 */
function editDelta(call: SummarizableCall, input: CallInput, typed: Record<string, unknown>) {
  if (call.result?.isError === true) return undefined;
  const typedAdded = n(typed.linesAdded);
  const typedRemoved = n(typed.linesRemoved);
  if (typedAdded !== undefined && typedRemoved !== undefined) return { added: typedAdded, removed: typedRemoved };
  const edits = input.edits ?? [input];
  let added = 0;
  let removed = 0;
  let any = false;
  for (const edit of edits) {
    if (edit.oldString === undefined && edit.newString === undefined) continue;
    any = true;
    const delta = replacementDelta(edit.oldString ?? '', edit.newString ?? '');
    removed += delta.removed;
    added += delta.added;
  }
  return any ? { added, removed } : undefined;
}

/** A patch over files: the first file (and how many more), lines added and removed over all of them. */
function patchDetail(typed: Record<string, unknown>, p: string | undefined, cwd: string | undefined): string {
  const files = Array.isArray(typed.files) ? typed.files.filter(isObj) : [];
  const first = s(files[0]?.path);
  if (first === undefined) return p ?? '';
  const more = files.length > 1 ? ` and ${files.length - 1} more` : '';
  const added = files.reduce((sum, f) => sum + (n(f.linesAdded) ?? 0), 0);
  const removed = files.reduce((sum, f) => sum + (n(f.linesRemoved) ?? 0), 0);
  return `${relativePath(first, cwd)}${more} +${added} −${removed}`;
}

function outcome(call: SummarizableCall): string {
  const result = call.result;
  if (!result) return '';
  if (!result.isError) return '';
  const error = result.error;
  if (error?.exitCode !== undefined) return ` → exit ${error.exitCode}`;
  return ` → ${error?.category ?? 'error'}`;
}

/** The typed result's kind and data; empty data for a failed or untyped result. */
function typedOf(call: SummarizableCall): { kind: string | undefined; data: Record<string, unknown> } {
  const typed = call.result?.typed;
  if (!isObj(typed) || typeof typed.kind !== 'string' || !isObj(typed.data)) return { kind: undefined, data: {} };
  return { kind: typed.kind, data: typed.data };
}

/**
 * The kind a call is summarised as: its typed result's kind, else the kind its adapter gave the tool (a call
 * without a result yet, or one that failed).
 */
function kindOf(call: SummarizableCall): string | undefined {
  return typedOf(call).kind ?? call.toolKind ?? undefined;
}

/** The summary without the tool's duration, e.g. `Bash npm test → exit 1`. */
export function summarizeCall(call: SummarizableCall, cwd?: string): string {
  const detail = callDetail(call, cwd);
  const text = detail === '' ? call.name : `${call.name} ${detail}`;
  if (kindOf(call) === 'bash') {
    const result = call.result;
    if (result && !result.isError) {
      const { exitCode, runningSessionId } = typedOf(call).data;
      const code = n(exitCode);
      const running = s(runningSessionId);
      const status =
        code !== undefined ? `exit ${code}` : running !== undefined ? `running (session ${running})` : 'ok';
      return `${text} → ${status}`;
    }
    return `${text}${outcome(call)}`;
  }
  return `${oneLine(text, 100)}${outcome(call)}`;
}

/** What the call was about, without the tool's name or outcome: `src/a.ts +3 −1`, `"foo" in src`. */
export function callDetail(call: SummarizableCall, cwd?: string): string {
  const input: CallInput = call.typedInput ?? {};
  const typed = typedOf(call).data;
  const path = s(input.filePath) ?? s(input.path);
  const p = path ? relativePath(path, cwd) : undefined;
  let detail: string;
  const kind = kindOf(call);
  switch (kind) {
    case 'edit':
    case 'multi-edit': {
      const delta = editDelta(call, input, typed);
      // An edit that made the file (Gemini's replace of an empty string) says so, as a Write's "create" does.
      detail =
        typed.operation === 'create'
          ? `${p ?? ''} (created${delta ? `, ${plural(delta.added, 'line')}` : ''})`
          : `${p ?? ''}${delta ? ` +${delta.added} −${delta.removed}` : ''}`;
      break;
    }
    case 'patch':
      detail = patchDetail(typed, p, cwd);
      break;
    case 'write': {
      const content = s(input.content);
      detail = `${p ?? ''}${content !== undefined ? ` (${plural(countLines(content), 'line')})` : ''}`;
      break;
    }
    case 'read': {
      const offset = input.offset;
      const limit = input.limit;
      const range = offset !== undefined || limit !== undefined ? `:${offset ?? 1}${limit ? `+${limit}` : ''}` : '';
      detail = `${p ?? ''}${range}`;
      break;
    }
    case 'notebook-edit':
      detail = `${p ?? ''}${s(input.editMode) ? ` (${s(input.editMode)})` : ''}`;
      break;
    case 'lsp':
      detail = p ?? firstString(call.input);
      break;
    case 'bash': {
      // A call that writes to a running session (Codex write_stdin) names the session instead of a command.
      const command = s(input.command) ?? (s(input.taskId) ? `#${s(input.taskId)}` : '');
      const bg = input.background === true ? ' &' : '';
      return `${oneLine(command, 60)}${bg}`;
    }
    case 'grep': {
      const pattern = s(input.pattern) ?? '';
      detail = `"${oneLine(pattern, 40)}"${p ? ` in ${p}` : ''}${s(input.glob) ? ` (${s(input.glob)})` : ''}`;
      break;
    }
    case 'glob':
      detail = `${s(input.pattern) ?? ''}${p ? ` in ${p}` : ''}`;
      break;
    case 'agent': {
      const type = s(input.agentType);
      detail = `${oneLine(s(input.description) ?? s(input.prompt) ?? '', 60)}${type ? ` (${type})` : ''}`;
      break;
    }
    case 'web-fetch':
      detail = s(input.url) ?? '';
      break;
    case 'web-search':
    case 'tool-search':
      detail = `"${oneLine(s(input.query) ?? '', 60)}"`;
      break;
    case 'todo-write': {
      const todos = input.todos ?? [];
      const done = todos.filter((t) => t.status === 'completed').length;
      detail = `${todos.length} todos, ${done} done`;
      break;
    }
    case 'task-output':
    case 'task-stop':
      detail = s(input.taskId) ?? '';
      break;
    case 'skill':
      detail = s(input.skillName) ?? '';
      break;
    case 'ask-user-question':
      detail = (input.questions ?? []).map((q) => q.question).join(' · ');
      break;
    case 'exit-plan-mode': {
      const first = (s(input.plan) ?? '').split('\n').find((l) => l.trim() !== '');
      detail = first?.replace(/^#+\s*/, '') ?? '';
      break;
    }
    case 'task-create':
      detail = s(input.subject) ?? '';
      break;
    case 'task-update':
    case 'task-get': {
      const id = s(input.taskId) ? `#${s(input.taskId)}` : '';
      // an update's new status, as it changed (else as asked; none when it failed): `#1 Write the parser → completed`
      const change = isObj(typed.statusChange) ? s(typed.statusChange.to) : undefined;
      const asked = isObj(call.input) ? s(call.input.status) : undefined;
      const status = kind === 'task-update' && typed.success !== false ? (change ?? asked) : undefined;
      detail = [id, s(call.taskSubject) ?? '', status === undefined ? '' : `→ ${status}`]
        .filter((part) => part !== '')
        .join(' ');
      break;
    }
    default:
      detail = scriptDetail(input, cwd) ?? firstString(call.input);
  }
  return oneLine(detail, 100);
}

/**
 * A script's detail (Codex `exec`: JavaScript calling the agent's tools, its input's `commands` and `patch`): the
 * first command it runs, else the first file its patches change, and how many more; undefined when it names neither.
 */
function scriptDetail(input: CallInput, cwd: string | undefined): string | undefined {
  const commands = input.commands ?? [];
  const files = input.patch === undefined ? [] : parseApplyPatch(input.patch).map((f) => relativePath(f.path, cwd));
  const first = commands[0] !== undefined ? oneLine(commands[0], 60) : files[0];
  if (first === undefined) return undefined;
  const more = commands.length + files.length - 1;
  return more > 0 ? `${first} and ${more} more` : first;
}

function firstString(input: unknown): string {
  if (!isObj(input)) return '';
  for (const value of Object.values(input)) {
    if (typeof value === 'string' && value.trim() !== '') return oneLine(value, 60);
  }
  return '';
}
