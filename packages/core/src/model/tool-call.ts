import type { CallInput } from './call-input.js';
import type { ImageValue, ResultContent } from './content.js';
import type { IsoTimestamp, RecordUuid, SubagentId, ToolUseId } from './ids.js';
import type { SourceLocation } from './issue.js';
import type { ToolError } from './tool-error.js';
import type { DataKind, TypedResult } from './typed-result.js';

/**
 * `pending`: no result yet and the file may still grow; `unanswered`: no result and the conversation moved on
 * (interrupted, crashed, or cut off).
 */
export const callStatuses = ['ok', 'error', 'pending', 'unanswered'] as const;
export type CallStatus = (typeof callStatuses)[number];

/**
 * Why an `unanswered` call has no result: the conversation went on without one (a later response or prompt in its
 * thread), or the session ends first (killed, interrupted or cut off before any result was written).
 */
export const noResultReasons = ['conversation-went-on', 'session-ended'] as const;
export type NoResultReason = (typeof noResultReasons)[number];

export const durationSources = ['timestamps', 'durationMs', 'durationSeconds', 'totalDurationMs'] as const;
export type DurationSource = (typeof durationSources)[number];

/** A duration with the place it came from. */
export interface Duration {
  readonly source: DurationSource;
  readonly ms: number;
}

export interface ToolResult {
  readonly toolUseId: ToolUseId;
  readonly uuid: RecordUuid | undefined;
  readonly timestamp: IsoTimestamp | undefined;
  readonly loc: SourceLocation;
  /** `is_error === true` on the tool_result block. */
  readonly isError: boolean;
  readonly content: ResultContent;
  /** The structured `toolUseResult` as written (undefined when absent). */
  readonly toolUseResult: unknown;
  readonly typed: TypedResult;
  readonly error: ToolError | undefined;
  readonly images: readonly ImageValue[];
}

export interface ToolCall {
  readonly kind: 'tool-call';
  readonly id: ToolUseId;
  /** Tool name as written in the transcript. */
  readonly name: string;
  /** Canonical name after aliases (Task→Agent, KillShell→TaskStop, …); `mcp__*` names stay as they are. */
  readonly canonicalName: string;
  /**
   * The kind the agent's adapter types this tool's results onto, known before any result arrives (so a running or
   * failed call is shown as its tool); undefined for a tool the adapter does not know.
   */
  readonly toolKind: DataKind | undefined;
  readonly input: unknown;
  /** The input under the shared names (`CallInput`), from the agent's adapter; undefined when it has none. */
  readonly typedInput?: CallInput;
  readonly timestamp: IsoTimestamp | undefined;
  readonly loc: SourceLocation;
  readonly messageId: string | undefined;
  /** The subagent that made this call; undefined for the main thread. */
  readonly agentId: SubagentId | undefined;
  readonly status: CallStatus;
  /** With status `unanswered` only: why it has no result. */
  readonly noResult?: NoResultReason | undefined;
  readonly result: ToolResult | undefined;
  readonly durations: readonly Duration[];
  /** For Task/Agent calls: the id of the subagent it started, when linked. */
  readonly subagentKey: string | undefined;
  /** For a call that names a task by id (TaskUpdate, TaskGet): the task's subject, as the session's calls gave it. */
  readonly taskSubject?: string | undefined;
}

/**
 * One duration per call for statistics: the timestamp delta (call record → result record), which every call
 * has and which is comparable across tools; the tool's own figure only when timestamps are missing.
 */
export function primaryDurationMs(call: Pick<ToolCall, 'durations'>): number | undefined {
  const order: readonly DurationSource[] = ['timestamps', 'durationMs', 'totalDurationMs', 'durationSeconds'];
  for (const source of order) {
    const found = call.durations.find((d) => d.source === source);
    if (found) return found.ms;
  }
  return undefined;
}
