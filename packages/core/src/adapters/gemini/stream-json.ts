import { isRecord, num, str } from '../../internal/guards.js';
import { parseObjectLines } from '../../internal/json-line.js';
import { type ReadEnd, type ReadLinesOptions, readLines } from '../../io/read-lines.js';
import { createSessionId } from '../../model/ids.js';
import type { SourceLocation } from '../../model/issue.js';
import type { TranscriptRecord } from '../../model/record.js';
import { stampOf } from './parts.js';
import { messageRecords, type ThreadContext } from './records.js';
import type { GeminiRecordEvent } from './types.js';

/**
 * One line's place in the output: records ready to emit, or the message the line opens, as a session file would hold
 * it (a model turn is completed by the lines after it; its records are made at the end).
 */
type Slot =
  | { readonly kind: 'records'; readonly records: readonly TranscriptRecord[]; readonly bytes: number }
  | {
      readonly kind: 'message';
      readonly message: Record<string, unknown>;
      readonly loc: SourceLocation;
      readonly bytes: number;
      /** The line's own records, after the message's (a side model's usage placed on a line of meta records). */
      readonly after?: readonly TranscriptRecord[];
    }
  | { readonly kind: 'event'; readonly event: GeminiRecordEvent };

/** The model turn being read: text from `delta` chunks, then calls with their results. */
interface Turn {
  readonly message: { content: string; readonly toolCalls: Record<string, unknown>[] };
  /** A result came: the next chunk or call is the next response's. */
  answered: boolean;
}

/**
 * Read `gemini --output-format stream-json` output (a CI job's artifact) as a Gemini session: `init` (session id,
 * model, time), user `message`s, assistant `delta` chunks joined into one model message with the `tool_use` calls
 * that follow them and each call's `tool_result` (by `tool_id`) inline, as the session files hold them, so the
 * session files' reader makes the records (`messageRecords`) and their typing and error rules apply unchanged.
 * `result.stats` is the run's usage: one response per model in `stats.models` (0.4x+; thoughts are what `total_tokens`
 * holds beyond input and output), or the run's totals under the requested model (0.20: no cached count); the model
 * with the most tokens on the `result` line, each other one on a line of its own (`placedEarlier`). Each line is a
 * record or an issue; never throws on bad data.
 */
export async function streamGeminiStreamJson(
  file: { readonly path: string; readonly sessionId: string | undefined },
  onEvent: (event: GeminiRecordEvent) => void,
  options: ReadLinesOptions = {},
): Promise<ReadEnd> {
  const slots: Slot[] = [];
  const calls = new Map<string, Record<string, unknown>>();
  let sessionId = file.sessionId;
  /** A message's id: the session's and its line's (the format has none). */
  const messageOf = (type: string, line: Record<string, unknown>, loc: SourceLocation) => ({
    id: `${sessionId ?? file.path}:${loc.line}`,
    type,
    timestamp: line.timestamp,
  });
  let model: string | undefined;
  let turn: Turn | undefined;
  const { startOffset: _offset, startLine: _line, ...rest } = options;
  const end = await readLines(
    file.path,
    (event) => {
      if (event.kind === 'issue') {
        slots.push({ kind: 'event', event });
        return;
      }
      const loc = { file: file.path, line: event.line, offset: event.offset };
      const issue = (code: Parameters<Parameters<typeof parseObjectLines>[1]>[0], message: string) =>
        slots.push({
          kind: 'event',
          event: { kind: 'issue', issue: { code, file: file.path, line: loc.line, message } },
        });
      for (const [index, line] of parseObjectLines(event.text, issue).entries()) {
        const bytes = index === 0 ? event.text.length : 0;
        const type = str(line.type) ?? '';
        const meta = (what: string): void => {
          const record: TranscriptRecord = {
            kind: 'meta',
            type: `stream-json:${what}`,
            data: line,
            sessionId: sessionId === undefined ? undefined : createSessionId(sessionId),
            timestamp: stampOf(line.timestamp),
            loc,
          };
          slots.push({ kind: 'records', records: [record], bytes });
        };
        // The turn this chunk or call belongs to: the open one, else a new one that this line opens.
        const openTurn = (): boolean => {
          if (turn !== undefined && !turn.answered) return false;
          const message = { ...messageOf('gemini', line, loc), model, content: '', toolCalls: [] };
          turn = { message, answered: false };
          slots.push({ kind: 'message', message, loc, bytes });
          return true;
        };
        if (type === 'init') {
          sessionId ??= str(line.session_id);
          model = str(line.model);
          meta(type);
        } else if (type === 'message' && line.role === 'assistant') {
          const opened = openTurn();
          if (turn !== undefined) turn.message.content += str(line.content) ?? '';
          if (!opened) meta('delta');
        } else if (type === 'message') {
          turn = undefined;
          slots.push({
            kind: 'message',
            message: { ...messageOf('user', line, loc), content: line.content },
            loc,
            bytes,
          });
        } else if (type === 'tool_use') {
          const opened = openTurn();
          const id = str(line.tool_id) ?? `${loc.line}`;
          const call: Record<string, unknown> = { id, name: str(line.tool_name), args: line.parameters ?? {} };
          calls.set(id, call);
          turn?.message.toolCalls.push(call);
          if (!opened) meta(type);
        } else if (type === 'tool_result') {
          const call = calls.get(str(line.tool_id) ?? '');
          if (call !== undefined) Object.assign(call, callResultOf(call, line));
          if (turn !== undefined) turn.answered = true;
          meta(call === undefined ? 'tool_result-without-call' : type);
        } else if (type === 'result') {
          turn = undefined;
          const failed = str(line.status) !== undefined && line.status !== 'success';
          const error = isRecord(line.error) ? str(line.error.message) : undefined;
          const [main, ...side] = usageMessages(line, model, messageOf('gemini', line, loc).id);
          // An index keeps one response per line: each other model's usage goes first on an earlier line that holds
          // only meta records (the `init` line first), where one is left; else on this line with the main model's.
          const left = side.filter((message) => !placedEarlier(slots, message));
          const messages = [
            ...(main === undefined ? [] : [main]),
            ...left,
            ...(failed
              ? [{ ...messageOf('error', line, loc), content: error ?? `run ended: ${str(line.status)}` }]
              : []),
          ];
          if (messages.length === 0) meta(type);
          for (const [index, message] of messages.entries()) {
            slots.push({ kind: 'message', message, loc, bytes: index === 0 ? bytes : 0 });
          }
        } else if (type === 'error') {
          // A non-fatal error or warning the client reported during the run (`severity`, `message`).
          const level = line.severity === 'warning' ? 'warning' : 'error';
          slots.push({
            kind: 'message',
            message: { ...messageOf(level, line, loc), content: line.message },
            loc,
            bytes,
          });
        } else {
          slots.push({
            kind: 'records',
            records: [
              {
                kind: 'unknown',
                type: `stream-json:${type || '(no type)'}`,
                raw: line,
                sessionId: undefined,
                timestamp: stampOf(line.timestamp),
                loc,
              },
            ],
            bytes,
          });
        }
      }
    },
    rest,
  );
  const ctx = contextOf(file.path, sessionId);
  for (const slot of slots) {
    if (slot.kind === 'event') onEvent(slot.event);
    else {
      const records =
        slot.kind === 'message'
          ? [...messageRecords(slot.message, slot.loc, ctx), ...(slot.after ?? [])]
          : slot.records;
      records.forEach((record, index) => {
        if (record.kind === 'unknown') {
          const message = `unknown Gemini stream-json event "${record.type}" kept as raw data`;
          onEvent({
            kind: 'issue',
            issue: { code: 'unknown_record', file: file.path, line: record.loc.line, message },
          });
        }
        onEvent({ kind: 'record', record, byteLength: index === 0 ? slot.bytes : 0 });
      });
    }
  }
  return end;
}

/** Put a usage message first on the earliest line whose records are all meta records; false when none is left. */
function placedEarlier(slots: Slot[], message: Record<string, unknown>): boolean {
  const at = slots.findIndex((s) => s.kind === 'records' && s.bytes > 0 && s.records.every((r) => r.kind === 'meta'));
  const slot = slots[at];
  const loc = slot?.kind === 'records' ? slot.records[0]?.loc : undefined;
  if (slot?.kind !== 'records' || loc === undefined) return false;
  slots[at] = { kind: 'message', message, loc, bytes: slot.bytes, after: slot.records };
  return true;
}

function contextOf(file: string, sessionId: string | undefined): ThreadContext {
  return { file, sessionId, cwd: undefined, injected: new Set(), subagentId: undefined, parent: null };
}

/** A `tool_result` as the session files' call entry holds it: status, completion time and the response. */
function callResultOf(call: Record<string, unknown>, line: Record<string, unknown>): Record<string, unknown> {
  const status = str(line.status);
  const error = isRecord(line.error) ? line.error : undefined;
  const output = str(line.output) ?? '';
  const response = status === 'error' ? { error: str(error?.message) ?? output } : { output };
  return {
    status,
    timestamp: line.timestamp,
    resultDisplay: output,
    ...(error !== undefined ? { errorType: str(error.type) } : {}),
    result: [{ functionResponse: { id: call.id, name: call.name, response } }],
  };
}

/**
 * `result.stats` as model messages carrying `tokens` (the session files' per-message shape): one per model of
 * `stats.models`, else one for the run under the requested model. Thoughts are written nowhere else: they are what
 * `total_tokens` counts beyond input and output.
 */
function usageMessages(
  line: Record<string, unknown>,
  model: string | undefined,
  id: string,
): Record<string, unknown>[] {
  const stats = isRecord(line.stats) ? line.stats : {};
  const byModel = isRecord(stats.models) ? Object.entries(stats.models) : [[model ?? 'gemini', stats] as const];
  return byModel
    .flatMap(([name, value]) => {
      if (!isRecord(value)) return [];
      const input = num(value.input_tokens);
      const output = num(value.output_tokens);
      if (input === undefined || output === undefined) return [];
      const total = num(value.total_tokens) ?? input + output;
      const tokens = {
        input,
        output,
        cached: num(value.cached) ?? 0,
        thoughts: Math.max(0, total - input - output),
        tool: 0,
        total,
      };
      return [{ id: `${id}:${name}`, type: 'gemini', timestamp: line.timestamp, model: name, content: '', tokens }];
    })
    .sort((a, b) => b.tokens.total - a.tokens.total);
}
