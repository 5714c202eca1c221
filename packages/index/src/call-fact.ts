/**
 * The classified columns of a call's fact row (`call_fact_rows`), from its first call and first result as stored:
 * computed by the writer from the stored rows (`Writer.recomputeCall`), or ahead by a parse worker for a call and
 * result of one new file (`FactTracker`), which the writer takes when they are the ones it would have read.
 */
import {
  agentIdOfResult,
  createIsoTimestamp,
  createRecordUuid,
  createToolUseId,
  primaryDurationMs,
  type RawCall,
  type RawResult,
  type RecordEvent,
  type ResultContent,
  type ToolCall,
  timestampDurations,
} from '@agentdash/core';
import { summarizeCall } from '@agentdash/core/present';
import { type AgentKind, adapterForFile } from './agents.js';
import { unpackText } from './packed-json.js';
import { OP, type Op } from './record-rows.js';

/** A call as stored (`calls`), its input parsed back. */
export interface StoredCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  readonly ts: string | null;
  readonly line: number;
  readonly messageId: string | null;
}

/** A result as stored (`results`), its content and structured output parsed back. */
export interface StoredResult {
  readonly uuid: string | null;
  readonly ts: string | null;
  readonly line: number;
  readonly isError: boolean;
  readonly content: unknown;
  readonly toolUseResult: unknown;
}

/** The fact columns that depend on the call's typing. */
export interface FactColumns {
  readonly canonical_name: string;
  readonly has_result: 0 | 1;
  readonly is_error: 0 | 1;
  readonly category: string | null;
  readonly severity: string | null;
  readonly error_message: string | null;
  readonly exit_code: number | null;
  readonly duration_ms: number | null;
  readonly summary: string;
  /** The background shell or async agent the result started (the header's `shells`), if any. */
  readonly task_id: string | null;
  /** The subagent the result names, for the calls that can start one (`linkSubagents` in core). */
  readonly agent_ref: string | null;
}

/** The background shell or async agent a call's result started, if any. */
function taskIdOf(result: ToolCall['result']): string | null {
  const typed = result?.typed;
  if (typed?.kind === 'bash') return typed.data.backgroundTaskId ?? null;
  if (typed?.kind === 'agent' && typed.data.status === 'async_launched') return typed.data.agentId ?? null;
  return null;
}

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Type a stored call and its result through the file's agent, and summarise it (core's one rule). */
export function factColumnsOf(
  call: StoredCall,
  result: StoredResult | undefined,
  cwd: string | undefined,
  agent: AgentKind,
): FactColumns {
  const raw: RawCall = {
    id: createToolUseId(call.id),
    name: call.name,
    input: call.input,
    timestamp: call.ts === null ? undefined : createIsoTimestamp(call.ts),
    loc: { file: '', line: call.line, offset: 0 },
    messageId: call.messageId ?? undefined,
  };
  const rawResult: RawResult | undefined = result
    ? {
        toolUseId: createToolUseId(call.id),
        uuid: createRecordUuid(result.uuid ?? ''),
        timestamp: result.ts === null ? undefined : createIsoTimestamp(result.ts),
        loc: { file: '', line: result.line, offset: 0 },
        isError: result.isError,
        content: result.content as ResultContent,
        toolUseResult: result.toolUseResult,
      }
    : undefined;
  // The call's agent types its result (every file of a session is one agent's).
  const adapter = adapterForFile({ agent });
  const typed = rawResult ? adapter.typeResult(raw, rawResult) : undefined;
  const canonicalName = adapter.canonicalToolName(call.name);
  const typing = {
    toolKind: adapter.kindOfTool?.(canonicalName),
    typedInput: adapter.typeInput?.(canonicalName, raw.input),
  };
  const summary = summarizeCall({ name: call.name, canonicalName, input: raw.input, ...typing, result: typed }, cwd);
  const durationMs = primaryDurationMs({
    durations: adapter.durationsOf?.(raw, rawResult) ?? timestampDurations(raw, rawResult),
  });
  return {
    canonical_name: canonicalName,
    has_result: typed ? 1 : 0,
    is_error: typed?.isError ? 1 : 0,
    category: typed?.error?.category ?? null,
    severity: typed?.error?.severity ?? null,
    error_message: typed?.error?.message ?? null,
    exit_code: typed?.error?.exitCode ?? null,
    duration_ms: durationMs ?? null,
    summary,
    task_id: taskIdOf(typed),
    agent_ref:
      typing.toolKind === 'agent' ||
      (isObject(rawResult?.toolUseResult) && typeof rawResult.toolUseResult.agentId === 'string')
        ? (agentIdOfResult(rawResult) ?? null)
        : null,
  };
}

/**
 * In a parse worker: the fact columns of each call of one new file with the file's first result for it (or none),
 * as row operations `[OP.fact, id, call line, result line or null, columns]`. The call and result are read back from
 * their stored forms (`opsOfEvent`'s packed JSON texts), as the writer would read them.
 */
export class FactTracker {
  private readonly calls = new Map<string, { call: StoredCall; cwd: string | undefined }>();
  private readonly results = new Map<string, StoredResult>();
  private readonly done = new Set<string>();
  private cwdLine = -1;
  private cwd: string | undefined;

  constructor(private readonly agent: AgentKind) {}

  /** Note what `ops` (the row operations of one event, just built) stored, and add the facts now known. */
  track(event: RecordEvent, ops: Op[], from: number): void {
    if (event.kind !== 'record') return;
    const record = event.record;
    const end = ops.length;
    for (let i = from; i < end; i++) {
      const op = ops[i] as Op;
      if (op[0] === OP.record) {
        // The first record of a line has its row (a second record glued on the same line has none).
        const line = op[1] as number;
        if (line !== this.cwdLine) {
          this.cwdLine = line;
          this.cwd = (op[6] as string | null) ?? undefined;
        }
      } else if (op[0] === OP.call) {
        const id = op[1] as string;
        if (this.calls.has(id) || this.done.has(id)) continue;
        const input = record.kind === 'assistant' ? inputTextOf(op[4]) : undefined;
        const call: StoredCall = {
          id,
          name: op[3] as string,
          input: input === undefined ? undefined : JSON.parse(input),
          ts: 'timestamp' in record && record.timestamp !== undefined ? record.timestamp : null,
          line: op[2] as number,
          messageId: (op[7] as string | null) ?? null,
        };
        const cwd = this.cwdLine === call.line ? this.cwd : undefined;
        const result = this.results.get(id);
        if (result !== undefined) this.emit(ops, call, result, cwd);
        else this.calls.set(id, { call, cwd });
      } else if (op[0] === OP.result) {
        const id = op[1] as string;
        if (this.results.has(id) || this.done.has(id)) continue;
        const result: StoredResult = {
          uuid: 'uuid' in record ? record.uuid : null,
          ts: 'timestamp' in record && record.timestamp !== undefined ? record.timestamp : null,
          line: op[2] as number,
          isError: op[6] === 1,
          content: JSON.parse(inputTextOf(op[7]) ?? 'null'),
          toolUseResult: op[8] === null ? undefined : JSON.parse(inputTextOf(op[8]) ?? 'null'),
        };
        const pending = this.calls.get(id);
        if (pending !== undefined) {
          this.calls.delete(id);
          this.emit(ops, pending.call, result, pending.cwd);
        } else this.results.set(id, result);
      }
    }
  }

  /** The facts of calls that have no result in the file. */
  finish(ops: Op[]): void {
    for (const { call, cwd } of this.calls.values()) this.emit(ops, call, undefined, cwd);
    this.calls.clear();
  }

  private emit(ops: Op[], call: StoredCall, result: StoredResult | undefined, cwd: string | undefined): void {
    this.done.add(call.id);
    ops.push([OP.fact, call.id, call.line, result?.line ?? null, factColumnsOf(call, result, cwd, this.agent)]);
  }
}

/** The JSON text of a stored value (`packJson` keeps it as text, or deflated: then it is inflated). */
function inputTextOf(stored: unknown): string | undefined {
  if (stored === null || stored === undefined) return undefined;
  if (typeof stored === 'string') return stored;
  return unpackText(stored as Uint8Array);
}
