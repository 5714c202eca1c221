/**
 * The rules of a session's header, written once over neutral facts: which events the timeline shows by default,
 * which call started a background task, and the counts the header adds up from calls and threads (calls per tool,
 * errors of a subagent and of the subagents it started, the events of the main timeline). `loadSession`'s callers
 * feed them a loaded session (the server's session view); the index feeds them its stored rows
 * (`index/src/read/session-header.ts`), so both headers follow the same rules.
 */
import type { HiddenReason } from '../model/session.js';
import type { ToolCall } from '../model/tool-call.js';
import type { TypedResult } from '../model/typed-result.js';
import { commandPartOf } from './classify-user.js';

/** Hidden user messages the timeline still shows by default: they change what the conversation is. */
const SHOWN_HIDDEN: ReadonlySet<HiddenReason> = new Set<HiddenReason>([
  'compact-summary',
  'command',
  'command-output',
  'interrupt',
  'task-notification',
  'interjection',
  'tool-image',
]);

/** System notes the timeline hides by default: bookkeeping of the client. */
const HIDDEN_SYSTEM: ReadonlySet<string> = new Set(['turn_duration', 'stop_hook_summary']);

/** What decides whether a user or system record shows in the timeline by default. */
export type ShownFacts =
  | { readonly kind: 'user'; readonly hidden: HiddenReason | undefined }
  | { readonly kind: 'system'; readonly subtype: string | undefined; readonly content: string | undefined };

/** A system note's facts: its subtype, and its content (a slash command's, when Claude Code wrote one so). */
export type SystemNoteFacts = Omit<Extract<ShownFacts, { kind: 'system' }>, 'kind'>;

/**
 * The part of a slash command a system note holds (`commandPartOf` of its content): Claude Code writes a command and
 * what it printed as user messages, and in some versions (2.0.69, 2.1.218) as `local_command` system records.
 */
function commandPartOfNote(facts: SystemNoteFacts) {
  return facts.content === undefined ? undefined : commandPartOf(facts.content);
}

/**
 * A system note's label: the part of a slash command it holds, named as the user message of that part is
 * (`command`, `command-output`), else its subtype (`system` without one).
 */
export function systemNoteLabel(facts: SystemNoteFacts): string {
  const part = commandPartOfNote(facts);
  return part === 'command' || part === 'command-output' ? part : facts.subtype || 'system';
}

/**
 * How the timeline shows a user or system record by default: `prompt` (a user message that is a prompt), `note`
 * (another event shown), undefined (hidden until asked for). Responses and unknown records always show.
 */
export function timelineShows(facts: ShownFacts): 'prompt' | 'note' | undefined {
  if (facts.kind === 'user') {
    if (facts.hidden === undefined) return 'prompt';
    return SHOWN_HIDDEN.has(facts.hidden) ? 'note' : undefined;
  }
  const part = commandPartOfNote(facts);
  if (part !== undefined) return SHOWN_HIDDEN.has(part) ? 'note' : undefined;
  return facts.subtype !== undefined && HIDDEN_SYSTEM.has(facts.subtype) ? undefined : 'note';
}

/** The background shell or async agent a call's typed result started, if any (the header's `shells`). */
export function backgroundTaskOf(typed: TypedResult | undefined): string | undefined {
  if (typed?.kind === 'bash') return typed.data.backgroundTaskId;
  if (typed?.kind === 'agent' && typed.data.status === 'async_launched') return typed.data.agentId;
  return undefined;
}

/** A call as the header counts it. */
export interface HeaderCall {
  readonly id: string;
  readonly canonicalName: string;
  readonly isError: boolean;
  /** An error the agent expected (severity `expected`). */
  readonly expected: boolean;
  /** The background shell or async agent it started (`backgroundTaskOf`). */
  readonly taskId: string | undefined;
  /** The key of the subagent thread it started, if linked to one. */
  readonly startedThread: string | undefined;
}

/** The header facts of a loaded call. */
export function headerCallOf(call: ToolCall): HeaderCall {
  return {
    id: call.id,
    canonicalName: call.canonicalName,
    isError: call.status === 'error',
    expected: call.result?.error?.severity === 'expected',
    taskId: backgroundTaskOf(call.result?.typed),
    startedThread: call.subagentKey,
  };
}

/** A subagent thread as the header counts it. */
export interface HeaderThread {
  readonly key: string;
  /** Whether a call of the session started it. */
  readonly started: boolean;
  /** Its events the timeline shows by default. */
  readonly shownEvents: number;
  /** Its calls, in its order. */
  readonly calls: readonly HeaderCall[];
}

export interface ThreadCounts {
  readonly toolCalls: number;
  /** Errors of its calls and of the subagents they started, however deep (real ones, then expected ones). */
  readonly errors: number;
  readonly expectedErrors: number;
}

export interface HeaderCounts {
  /** Events of the main timeline shown by default. */
  readonly totalEvents: number;
  readonly toolCalls: number;
  readonly errors: number;
  readonly expectedErrors: number;
  /** Calls per canonical tool name, in the order the tools first appear. */
  readonly toolCounts: Readonly<Record<string, number>>;
  /** Background shell or async agent id → the first call that started it. */
  readonly shells: Readonly<Record<string, string>>;
  /** Each thread's counts, in the order of the threads given. */
  readonly threads: readonly ThreadCounts[];
}

/**
 * The header's counts from a session's calls (each once, in the session's order) and threads. Without a main
 * thread (its file is missing), the main timeline is the runs no call started, one after another.
 */
export function headerCountsOf(input: {
  readonly calls: readonly HeaderCall[];
  readonly main: { readonly shownEvents: number } | undefined;
  readonly threads: readonly HeaderThread[];
}): HeaderCounts {
  const toolCounts: Record<string, number> = {};
  const shells: Record<string, string> = {};
  let errors = 0;
  let expectedErrors = 0;
  for (const call of input.calls) {
    toolCounts[call.canonicalName] = (toolCounts[call.canonicalName] ?? 0) + 1;
    if (call.taskId !== undefined && shells[call.taskId] === undefined) shells[call.taskId] = call.id;
    if (call.isError) errors++;
    if (call.expected) expectedErrors++;
  }
  const byKey = new Map(input.threads.map((t) => [t.key, t]));
  const errorsOf = (thread: HeaderThread, seen: Set<string>): { errors: number; expectedErrors: number } => {
    const counts = { errors: 0, expectedErrors: 0 };
    if (seen.has(thread.key)) return counts;
    seen.add(thread.key);
    for (const call of thread.calls) {
      if (call.isError) {
        if (call.expected) counts.expectedErrors++;
        else counts.errors++;
      }
      const nested = call.startedThread === undefined ? undefined : byKey.get(call.startedThread);
      if (nested) {
        const inner = errorsOf(nested, seen);
        counts.errors += inner.errors;
        counts.expectedErrors += inner.expectedErrors;
      }
    }
    return counts;
  };
  const threads = input.threads.map(
    (thread): ThreadCounts => ({ toolCalls: thread.calls.length, ...errorsOf(thread, new Set()) }),
  );
  const totalEvents =
    input.main?.shownEvents ?? input.threads.filter((t) => !t.started).reduce((n, t) => n + t.shownEvents, 0);
  return { totalEvents, toolCalls: input.calls.length, errors, expectedErrors, toolCounts, shells, threads };
}

/**
 * The earliest and the latest of some items by their time in milliseconds (the first met of equal ones); items
 * without a time are passed over. One rule for a session's time range and a subagent's, loaded or stored.
 */
export function extremesBy<T>(
  items: Iterable<T>,
  msOf: (item: T) => number | undefined,
): { readonly first: T | undefined; readonly last: T | undefined } {
  let first: T | undefined;
  let last: T | undefined;
  let firstMs = Number.POSITIVE_INFINITY;
  let lastMs = Number.NEGATIVE_INFINITY;
  for (const item of items) {
    const ms = msOf(item);
    if (ms === undefined) continue;
    if (ms < firstMs) {
      firstMs = ms;
      first = item;
    }
    if (ms > lastMs) {
      lastMs = ms;
      last = item;
    }
  }
  return { first, last };
}
