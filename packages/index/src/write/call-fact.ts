/**
 * The classified columns of a call's fact (columns of its `calls` row), from its first call and first result: computed
 * ahead by a parse worker for a call and result of one new file (`FactTracker`), or else by the writer from the
 * stored rows' places, their records read back (`Writer.recomputeCalls`, call-payloads.ts). Both read the same
 * decoded records the same way (`storedCallOf`, `storedResultOf`).
 */
import {
  agentIdOfResult,
  backgroundTaskOf,
  blockedByHook,
  createIsoTimestamp,
  createRecordUuid,
  createToolUseId,
  primaryDurationMs,
  type RawCall,
  type RawResult,
  type RecordEvent,
  type ResultContent,
  type TranscriptRecord,
  timestampDurations,
} from '@agentdash/core';
import { filesTouchedBy, joinedPath, relativePath, summarizeCall, type TouchingCall } from '@agentdash/core/present';
import { type AgentKind, adapterForFile } from '../agents.js';
import { isObj, str } from '../guards.js';
import { OP, type Op } from './row-ops.js';
import type { FactColumns, FactValues } from './row-types.js';

/** A call as its fact reads it (`storedCallOf`). */
export interface StoredCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  readonly ts: string | null;
  readonly line: number;
  readonly messageId: string | null;
}

/** A result as its fact reads it (`storedResultOf`). */
export interface StoredResult {
  readonly uuid: string | null;
  readonly ts: string | null;
  readonly line: number;
  readonly isError: boolean;
  readonly content: unknown;
  readonly toolUseResult: unknown;
}

export type { FactColumns, FactValues };

export function factValuesOf(c: FactColumns): FactValues {
  return [
    c.canonical_name,
    c.has_result,
    c.is_error,
    c.category,
    c.severity,
    c.error_message,
    c.exit_code,
    c.duration_ms,
    c.summary,
    c.task_id,
    c.agent_ref,
    c.subagent_prompt,
    c.subagent_type,
    c.touched,
  ];
}

/** The first call of `id` in a record (an assistant's tool-use block), as its fact reads it. */
export function storedCallOf(record: TranscriptRecord, id: string): StoredCall | undefined {
  if (record.kind !== 'assistant') return undefined;
  for (const block of record.content) {
    if (block.kind !== 'tool-use' || block.id !== id) continue;
    return {
      id,
      name: block.name,
      input: block.input,
      ts: record.timestamp ?? null,
      line: record.loc.line,
      messageId: record.messageId ?? null,
    };
  }
  return undefined;
}

/** The first result of `id` in a record (a user record's tool-result block), as its fact reads it. */
export function storedResultOf(record: TranscriptRecord, id: string): StoredResult | undefined {
  if (record.kind !== 'user' || typeof record.content === 'string') return undefined;
  for (const block of record.content) {
    if (block.kind !== 'tool-result' || block.toolUseId !== id) continue;
    return {
      uuid: record.uuid,
      ts: record.timestamp ?? null,
      line: record.loc.line,
      isError: block.isError,
      content: block.content,
      toolUseResult: record.toolUseResult,
    };
  }
  return undefined;
}

/** The first of a records' calls of `id` (the records at one place: several when glued on one line). */
export function callIn(records: readonly TranscriptRecord[], id: string): StoredCall | undefined {
  for (const record of records) {
    const call = storedCallOf(record, id);
    if (call !== undefined) return call;
  }
  return undefined;
}

/** The first of a records' results of `id`. */
export function resultIn(records: readonly TranscriptRecord[], id: string): StoredResult | undefined {
  for (const record of records) {
    const result = storedResultOf(record, id);
    if (result !== undefined) return result;
  }
  return undefined;
}

/** Core's form of a result of call `id`, found at `loc`. */
export function rawResultOf(id: string, result: StoredResult, loc: RawResult['loc']): RawResult {
  return {
    toolUseId: createToolUseId(id),
    uuid: createRecordUuid(result.uuid ?? ''),
    timestamp: result.ts === null ? undefined : createIsoTimestamp(result.ts),
    loc,
    isError: result.isError,
    content: result.content as ResultContent,
    toolUseResult: result.toolUseResult,
  };
}

/** What the call's agent knows of it before its result. */
type Typing = Pick<TouchingCall, 'toolKind' | 'typedInput'>;

/** Type a stored call and its result through the file's agent, and summarise it (core's one rule). */
export function factColumnsOf(
  call: StoredCall,
  result: StoredResult | undefined,
  cwd: string | undefined,
  agent: AgentKind,
  preToolHook = false,
): FactColumns {
  const raw: RawCall = {
    id: createToolUseId(call.id),
    name: call.name,
    input: call.input,
    timestamp: call.ts === null ? undefined : createIsoTimestamp(call.ts),
    loc: { file: '', line: call.line, offset: 0 },
    messageId: call.messageId ?? undefined,
  };
  const rawResult = result && rawResultOf(call.id, result, { file: '', line: result.line, offset: 0 });
  // The call's agent types its result (every file of a session is one agent's).
  const adapter = adapterForFile({ agent });
  const typedAlone = rawResult ? adapter.typeResult(raw, rawResult) : undefined;
  // core's one rule (toolCallOf): a hook's block is no exit of the command
  const typed = typedAlone && preToolHook ? blockedByHook(typedAlone) : typedAlone;
  const canonicalName = adapter.canonicalToolName(call.name);
  // Objects written out, not spread: spreading `typing` into each call's arguments took a third of the facts' own
  // time on the bench home (V8 copies a spread object through its slow path here).
  const typing: Typing = {
    toolKind: adapter.kindOfTool?.(canonicalName),
    typedInput: adapter.typeInput?.(canonicalName, raw.input, raw.id),
  };
  const summary = summarizeCall(
    {
      name: call.name,
      canonicalName,
      input: raw.input,
      toolKind: typing.toolKind,
      typedInput: typing.typedInput,
      result: typed,
    },
    cwd,
  );
  const durationMs = primaryDurationMs({
    durations: adapter.durationsOf?.(raw, rawResult) ?? timestampDurations(raw, rawResult),
  });
  const agentRef =
    typing.toolKind === 'agent' ||
    (isObj(rawResult?.toolUseResult) && typeof rawResult.toolUseResult.agentId === 'string')
      ? (agentIdOfResult(rawResult) ?? null)
      : null;
  const linksSubagent = typing.toolKind === 'agent' || agentRef !== null;
  const input = isObj(raw.input) ? raw.input : {};
  const output = isObj(rawResult?.toolUseResult) ? rawResult.toolUseResult : {};
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
    task_id: backgroundTaskOf(typed?.typed) ?? null,
    agent_ref: agentRef,
    subagent_prompt: linksSubagent ? (str(input.prompt) ?? null) : null,
    subagent_type: linksSubagent ? (str(output.agentType) ?? str(input.subagent_type) ?? null) : null,
    touched: touchedColumn(typed, typing, cwd),
  };
}

/**
 * `calls.touched`: the files the call touched (joined to the folder it ran in), as JSON `[[path, changed 0/1], …]`;
 * null when none. A path inside that folder is kept relative to it (core's `relativePath`; the folder is its record's
 * `cwd_ref`, which `read/touched-files.ts` joins back): most paths are, and would otherwise repeat the folder.
 */
function touchedColumn(result: TouchingCall['result'], typing: Typing, cwd: string | undefined): string | null {
  const status = result === undefined ? 'unanswered' : result.isError ? 'error' : 'ok';
  const touches = filesTouchedBy({ toolKind: typing.toolKind, typedInput: typing.typedInput, result, status }, cwd);
  if (touches.length === 0) return null;
  // Relative only where joining it back gives the path again (not a doubled or mixed separator at the folder's end).
  const stored = (path: string) => {
    const relative = relativePath(path, cwd);
    return relative !== path && joinedPath(relative, cwd) === path ? relative : path;
  };
  return JSON.stringify(touches.map((t) => [stored(t.path), t.changed ? 1 : 0]));
}

/**
 * In a parse worker: the fact columns of each call of one new file with the file's first result for it (or none),
 * as row operations `[OP.fact, id, call line, result line or null, FactValues]`, read from the decoded records as
 * the writer reads them back (`storedCallOf`, `storedResultOf`).
 */
export class FactTracker {
  private readonly calls = new Map<string, { call: StoredCall; cwd: string | undefined }>();
  private readonly results = new Map<string, StoredResult>();
  private readonly done = new Set<string>();
  /** The calls a PreToolUse hook ran on (`OP.hook`), in this file. */
  private readonly hooked = new Set<string>();
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
      // A copied record's row (`copy_of` set) is its holder's line's: its holder's directory, which it repeats.
      if (op[0] === OP.record && op[28] === undefined) {
        // The first record of a line has its row (a second record glued on the same line has none).
        const line = op[1] as number;
        if (line !== this.cwdLine) {
          this.cwdLine = line;
          this.cwd = (op[6] as string | null) ?? undefined;
        }
      } else if (op[0] === OP.call) {
        const id = op[1] as string;
        if (this.calls.has(id) || this.done.has(id)) continue;
        const call = storedCallOf(record, id);
        if (call === undefined) continue;
        const cwd = this.cwdLine === call.line ? this.cwd : undefined;
        const result = this.results.get(id);
        if (result !== undefined) {
          this.results.delete(id);
          this.emit(ops, call, result, cwd);
        } else this.calls.set(id, { call, cwd });
      } else if (op[0] === OP.hook) {
        this.hooked.add(op[1]);
      } else if (op[0] === OP.result) {
        const id = op[1] as string;
        if (this.results.has(id) || this.done.has(id)) continue;
        const result = storedResultOf(record, id);
        if (result === undefined) continue;
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
    const columns = factColumnsOf(call, result, cwd, this.agent, this.hooked.has(call.id));
    ops.push([OP.fact, call.id, call.line, result?.line ?? null, factValuesOf(columns)]);
  }
}
