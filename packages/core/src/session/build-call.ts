import type { AgentAdapter } from '../agents/adapter.js';
import { timestampDurations } from '../agents/durations.js';
import { createSubagentId } from '../model/ids.js';
import type { RawCall, RawResult } from '../model/raw.js';
import type { CallStatus, NoResultReason, ToolCall, ToolResult } from '../model/tool-call.js';
import { blockedByHook } from './hooked-calls.js';

/** A tool call as found, with the subagent (its `agentId`, or `sidechain`) whose records hold it. */
export interface RawCallWithAgent extends RawCall {
  readonly agentId: string | undefined;
}

/** What a call's status depends on besides its result. */
export interface CallContext {
  /** The session may still be written to. */
  readonly live: boolean | undefined;
  /** The conversation went on after the call (a later response or prompt in its thread). */
  readonly movedOn: boolean;
  /** The subagent thread the call started, when linked. */
  readonly subagentKey: string | undefined;
  /** The subject of the task the call names (`TaskSubjects`), when it names one the session created. */
  readonly taskSubject?: string | undefined;
  /** A PreToolUse hook ran on the call (`preToolHookCallOf`): a failure with no exit is the hook's block. */
  readonly preToolHook?: boolean;
}

/**
 * One call with its result typed by its agent's adapter: the one rule `loadSession` and the streamed session
 * (`openSessionStream`) both build calls by, so both write the same call.
 */
export function toolCallOf(
  adapter: AgentAdapter,
  raw: RawCallWithAgent,
  rawResult: RawResult | undefined,
  context: CallContext,
): ToolCall {
  const typed: ToolResult | undefined = rawResult ? adapter.typeResult(raw, rawResult) : undefined;
  const result = typed && context.preToolHook === true ? blockedByHook(typed) : typed;
  const status: CallStatus = result
    ? result.isError
      ? 'error'
      : 'ok'
    : context.live === true && !context.movedOn
      ? 'pending'
      : 'unanswered';
  const noResult: NoResultReason | undefined =
    status === 'unanswered' ? (context.movedOn ? 'conversation-went-on' : 'session-ended') : undefined;
  const canonicalName = adapter.canonicalToolName(raw.name);
  return {
    kind: 'tool-call',
    id: raw.id,
    name: raw.name,
    canonicalName,
    toolKind: adapter.kindOfTool?.(canonicalName),
    input: raw.input,
    ...(adapter.typeInput ? { typedInput: adapter.typeInput(canonicalName, raw.input, raw.id) } : {}),
    timestamp: raw.timestamp,
    loc: raw.loc,
    messageId: raw.messageId,
    agentId: raw.agentId ? createSubagentId(raw.agentId) : undefined,
    status,
    ...(noResult !== undefined ? { noResult } : {}),
    result,
    durations: [...(adapter.durationsOf ?? timestampDurations)(raw, rawResult)],
    subagentKey: context.subagentKey,
    ...(context.taskSubject !== undefined ? { taskSubject: context.taskSubject } : {}),
  };
}

/** The stand-in call a result without a call is typed against. */
export function orphanCall(raw: RawResult): RawCall {
  return {
    id: raw.toolUseId,
    name: '(unknown call)',
    input: undefined,
    timestamp: undefined,
    loc: raw.loc,
    messageId: undefined,
  };
}
