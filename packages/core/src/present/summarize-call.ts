/**
 * One-line, human summaries of tool calls: `Edit src/a.ts +3 −1`, `Bash npm test → exit 1`, `Grep "foo" in src`.
 * Pure functions over the call's name, input and result; the one rule for the index (stored per call), the CLI and
 * the dashboard (which shows the tool's name apart and the detail from {@link callDetail}).
 * @module
 */

export interface SummarizableCall {
  readonly name: string;
  readonly canonicalName: string;
  readonly input: unknown;
  readonly result?:
    | {
        readonly isError: boolean;
        readonly toolUseResult: unknown;
        /** Core's typed result (`{kind, data}`), when known. */
        readonly typed?: unknown;
        readonly error?: { readonly category: string; readonly exitCode?: number | undefined } | null | undefined;
      }
    | null
    | undefined;
}

const MAX = 80;

function isObj(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function s(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
function n(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Collapse whitespace and cut to `max` characters. */
export function oneLine(text: string, max = MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A path shown relative to the project folder when it is inside it. */
export function relativePath(path: string, cwd: string | undefined): string {
  if (cwd && path.startsWith(`${cwd}/`)) return path.slice(cwd.length + 1);
  return path;
}

function lineCount(text: string | undefined): number {
  if (text === undefined || text === '') return 0;
  return text.split('\n').length;
}

/** Added/removed line counts of an edit: from the structured patch when present, else from the strings. */
function editDelta(
  input: Record<string, unknown>,
  tur: unknown,
  typed: Record<string, unknown>,
): { added: number; removed: number } | undefined {
  const typedAdded = n(typed.linesAdded);
  const typedRemoved = n(typed.linesRemoved);
  if (typedAdded !== undefined && typedRemoved !== undefined) return { added: typedAdded, removed: typedRemoved };
  if (isObj(tur) && Array.isArray(tur.structuredPatch)) {
    let added = 0;
    let removed = 0;
    for (const hunk of tur.structuredPatch) {
      if (!isObj(hunk) || !Array.isArray(hunk.lines)) continue;
      for (const line of hunk.lines) {
        if (typeof line !== 'string') continue;
        if (line.startsWith('+')) added += 1;
        else if (line.startsWith('-')) removed += 1;
      }
    }
    return { added, removed };
  }
  const edits = Array.isArray(input.edits) ? input.edits.filter(isObj) : [input];
  let added = 0;
  let removed = 0;
  let any = false;
  for (const edit of edits) {
    const oldS = typeof edit.old_string === 'string' ? edit.old_string : undefined;
    const newS = typeof edit.new_string === 'string' ? edit.new_string : undefined;
    if (oldS === undefined && newS === undefined) continue;
    any = true;
    removed += lineCount(oldS);
    added += lineCount(newS);
  }
  return any ? { added, removed } : undefined;
}

function outcome(call: SummarizableCall): string {
  const result = call.result;
  if (!result) return '';
  if (!result.isError) return '';
  const error = result.error;
  if (error?.exitCode !== undefined) return ` → exit ${error.exitCode}`;
  return ` → ${error?.category ?? 'error'}`;
}

/** The summary without the tool's duration, e.g. `Bash npm test → exit 1`. */
export function summarizeCall(call: SummarizableCall, cwd?: string): string {
  const detail = callDetail(call, cwd);
  if (call.canonicalName === 'Bash') {
    const result = call.result;
    if (result && !result.isError) {
      const code = exitCodeOf(call);
      return `${call.name} ${detail} → ${code !== undefined ? `exit ${code}` : 'ok'}`;
    }
    return `${call.name} ${detail}${outcome(call)}`;
  }
  const text = detail === '' ? call.name : `${call.name} ${detail}`;
  return `${oneLine(text, 100)}${outcome(call)}`;
}

function exitCodeOf(call: SummarizableCall): number | undefined {
  const typedResult = call.result?.typed;
  const typed = isObj(typedResult) && isObj(typedResult.data) ? typedResult.data : {};
  const tur = call.result?.toolUseResult;
  return n(typed.exitCode) ?? (isObj(tur) ? n(tur.exitCode) : undefined);
}

/** What the call was about, without the tool's name or outcome: `src/a.ts +3 −1`, `"foo" in src`. */
export function callDetail(call: SummarizableCall, cwd?: string): string {
  const input = isObj(call.input) ? call.input : {};
  const tur = call.result?.toolUseResult;
  const typedResult = call.result?.typed;
  const typed = isObj(typedResult) && isObj(typedResult.data) ? typedResult.data : {};
  const path = s(input.file_path) ?? s(input.notebook_path) ?? s(input.filePath) ?? s(input.path);
  const p = path ? relativePath(path, cwd) : undefined;
  let detail: string;
  switch (call.canonicalName) {
    case 'Edit':
    case 'MultiEdit': {
      const delta = editDelta(input, tur, typed);
      detail = `${p ?? ''}${delta ? ` +${delta.added} −${delta.removed}` : ''}`;
      break;
    }
    case 'Write': {
      const content = s(input.content);
      detail = `${p ?? ''}${content !== undefined ? ` (${lineCount(content)} lines)` : ''}`;
      break;
    }
    case 'Read': {
      const offset = n(input.offset);
      const limit = n(input.limit);
      const range = offset !== undefined || limit !== undefined ? `:${offset ?? 1}${limit ? `+${limit}` : ''}` : '';
      detail = `${p ?? ''}${range}`;
      break;
    }
    case 'NotebookEdit':
      detail = `${p ?? ''}${s(input.edit_mode) ? ` (${s(input.edit_mode)})` : ''}`;
      break;
    case 'LSP':
      detail = p ?? firstString(input);
      break;
    case 'Bash': {
      const command = s(input.command) ?? '';
      const bg = input.run_in_background === true ? ' &' : '';
      return `${oneLine(command, 60)}${bg}`;
    }
    case 'Grep': {
      const pattern = s(input.pattern) ?? '';
      detail = `"${oneLine(pattern, 40)}"${p ? ` in ${p}` : ''}${s(input.glob) ? ` (${s(input.glob)})` : ''}`;
      break;
    }
    case 'Glob':
      detail = `${s(input.pattern) ?? ''}${p ? ` in ${p}` : ''}`;
      break;
    case 'Agent': {
      const type = s(input.subagent_type);
      detail = `${oneLine(s(input.description) ?? s(input.prompt) ?? '', 60)}${type ? ` (${type})` : ''}`;
      break;
    }
    case 'WebFetch':
      detail = s(input.url) ?? '';
      break;
    case 'WebSearch':
    case 'ToolSearch':
      detail = `"${oneLine(s(input.query) ?? '', 60)}"`;
      break;
    case 'TodoWrite': {
      const todos = Array.isArray(input.todos) ? input.todos : [];
      const done = todos.filter((t) => isObj(t) && t.status === 'completed').length;
      detail = `${todos.length} todos, ${done} done`;
      break;
    }
    case 'TaskOutput':
    case 'TaskStop':
      detail = s(input.bash_id) ?? s(input.shell_id) ?? s(input.task_id) ?? '';
      break;
    case 'Skill':
      detail = s(input.skill) ?? s(input.command) ?? '';
      break;
    case 'AskUserQuestion': {
      const questions = Array.isArray(input.questions) ? input.questions : [];
      detail = questions.map((q) => (isObj(q) ? (s(q.question) ?? '') : '')).join(' · ');
      break;
    }
    case 'ExitPlanMode': {
      const first = (s(input.plan) ?? '').split('\n').find((l) => l.trim() !== '');
      detail = first?.replace(/^#+\s*/, '') ?? '';
      break;
    }
    case 'TaskCreate':
      detail = s(input.subject) ?? '';
      break;
    case 'TaskUpdate':
    case 'TaskGet':
      detail = s(input.taskId) ? `#${s(input.taskId)}` : '';
      break;
    default:
      detail = firstString(input);
  }
  return oneLine(detail, 100);
}

function firstString(input: Record<string, unknown>): string {
  for (const value of Object.values(input)) {
    if (typeof value === 'string' && value.trim() !== '') return oneLine(value, 60);
  }
  return '';
}
