/**
 * The subjects of a session's tasks (Claude Code's TaskCreate, TaskUpdate, TaskGet): a TaskUpdate names its task by
 * id only (`#3`), so a call's one line and its card say which task that is. One rule for the loaded session and the
 * streamed one (which learns the subjects in its first pass, before it builds any call).
 * @module
 */
import type { AgentAdapter } from '../agents/adapter.js';
import { isRecord, str } from '../internal/guards.js';
import type { ToolCall } from '../model/tool-call.js';

/** A task's id and subject as a typed task result gives them (`task-create`'s data, `task-get`'s task). */
function taskOf(typed: unknown): { readonly id: string; readonly subject: string } | undefined {
  if (!isRecord(typed) || !isRecord(typed.data)) return undefined;
  const data = typed.data;
  if (typed.kind === 'task-create') {
    const id = str(data.taskId);
    const subject = str(data.subject);
    return id !== undefined && subject !== undefined ? { id, subject } : undefined;
  }
  if (typed.kind === 'task-get' && isRecord(data.task)) {
    const id = str(data.task.id);
    const subject = str(data.task.subject);
    return id !== undefined && subject !== undefined ? { id, subject } : undefined;
  }
  return undefined;
}

/** The kinds of calls that name a task by id. */
const NAMING = new Set(['task-update', 'task-get']);

/**
 * Each task's subject by id, as the session's calls in their order give it: a creation's result, a TaskGet's, and a
 * TaskUpdate that renames it (the last one said wins: the name the task ended with).
 */
export class TaskSubjects {
  private readonly subjects = new Map<string, string>();

  get size(): number {
    return this.subjects.size;
  }

  /** A call of `kind` with its input and its typed result (either may be absent). */
  take(kind: string | undefined, input: unknown, typed: unknown): void {
    const task = taskOf(typed);
    if (task !== undefined) this.subjects.set(task.id, task.subject);
    if (kind === 'task-update' && isRecord(input)) {
      const id = idOf(input.taskId);
      const subject = str(input.subject);
      if (id !== undefined && subject !== undefined && subject.trim() !== '') this.subjects.set(id, subject);
    }
  }

  /** The subject of the task a TaskUpdate or TaskGet of `input` names; undefined for any other call. */
  subjectOf(kind: string | undefined, input: unknown): string | undefined {
    if (kind === undefined || !NAMING.has(kind) || !isRecord(input)) return undefined;
    const id = idOf(input.taskId);
    return id === undefined ? undefined : this.subjects.get(id);
  }
}

function idOf(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : str(value);
}

/** A call's kind when it may give a task's subject (the streamed session's first pass keeps their inputs). */
export function taskKindOf(adapter: AgentAdapter, name: string): string | undefined {
  const kind = adapter.kindOfTool?.(adapter.canonicalToolName(name));
  return kind === 'task-create' || kind === 'task-get' || kind === 'task-update' ? kind : undefined;
}

/** The calls with `taskSubject` set on those naming a task (the same objects where nothing is set). */
export function withTaskSubjects(calls: readonly ToolCall[]): ToolCall[] {
  const subjects = new TaskSubjects();
  for (const call of calls) subjects.take(call.toolKind, call.input, call.result?.typed);
  if (subjects.size === 0) return [...calls];
  return calls.map((call) => {
    const taskSubject = subjects.subjectOf(call.toolKind, call.input);
    return taskSubject === undefined ? call : { ...call, taskSubject };
  });
}
