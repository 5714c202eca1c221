import { isRecord, num, str } from '../../internal/guards.js';
import { parseObjectLines } from '../../internal/json-line.js';
import type { ContentBlock } from '../../model/content.js';
import {
  createIsoTimestamp,
  createRecordUuid,
  createSessionId,
  createToolUseId,
  type IsoTimestamp,
  type RecordUuid,
} from '../../model/ids.js';
import type { ParseIssue, SourceLocation } from '../../model/issue.js';
import type { RecordEvent } from '../../model/raw.js';
import type { ChainEnvelope, TranscriptRecord } from '../../model/record.js';
import { unknownModelOf } from '../../model/unknown-model.js';
import { partType, resultContentOf, textOf } from '../gemini/parts.js';
import { usageOfQwenMetadata } from './usage.js';

/** The model named for a response whose line names none (never priced). */
export const UNKNOWN_QWEN_MODEL = unknownModelOf('qwen');

/** `uiEvent` names of `ui_telemetry` lines that AgentDash reads (the rest are kept as meta records). */
const API_RESPONSE = 'qwen-code.api_response';
const API_ERROR = 'qwen-code.api_error';
const TOOL_CALL = 'qwen-code.tool_call';

/**
 * Decodes one Qwen Code session file (`projects/<encoded cwd>/chats/<id>.jsonl`), line by line. Every line is a
 * record `{uuid, parentUuid, sessionId, timestamp, type, cwd, version, …}` chained by `parentUuid`:
 * - `user`: the prompt (`message.parts`);
 * - `assistant`: one response: `message.parts` (text, `thought` text, `functionCall {id, name, args}`), `model`,
 *   `usageMetadata`. It carries no response id: the `qwen-code.api_response` telemetry line written just before it
 *   has it (`response_id`), and it becomes the record's `messageId`;
 * - `tool_result`: a call's `functionResponse` (`{output}` or `{error}`) and `toolCallResult` (`status`,
 *   `resultDisplay`, `errorType`);
 * - `system`: `subtype` `ui_telemetry` (API responses and errors, tool calls), `attribution_snapshot`, …
 * Stateful (one per file) only for the pending response id; a read from an offset replays earlier lines.
 */
export class QwenDecoder {
  /** `response_id` of the last `api_response` telemetry line not yet given to an assistant line. */
  private pendingResponseId: string | undefined;
  /** `duration_ms` of each `tool_call` telemetry line (written before its `tool_result`), by call id. */
  private readonly toolDurations = new Map<string, number>();

  constructor(
    private readonly file: string,
    private readonly fileSessionId: string | undefined,
  ) {}

  /** Decode one line; records and issues go to `emit`. */
  decodeLine(text: string, loc: SourceLocation, emit: (event: RecordEvent) => void): void {
    const lines = parseObjectLines(text, (code, message) =>
      emit({ kind: 'issue', issue: this.issue(loc, code, message) }),
    );
    for (const [index, line] of lines.entries()) {
      const record = this.decodeRecord(line, loc);
      if (record.kind === 'unknown') {
        const message = `unknown record type "${record.type}" kept as raw data`;
        emit({ kind: 'issue', issue: this.issue(loc, 'unknown_record', message) });
      }
      emit({ kind: 'record', record, byteLength: index === 0 ? text.length : 0 });
    }
  }

  private decodeRecord(line: Record<string, unknown>, loc: SourceLocation): TranscriptRecord {
    const type = str(line.type) ?? '';
    const message = isRecord(line.message) ? line.message : {};
    const parts = Array.isArray(message.parts) ? message.parts : [];
    switch (type) {
      case 'user':
        return this.user(line, loc, textOf(parts), undefined, isMetaProvenance(line.provenance));
      case 'assistant':
        return this.assistant(line, loc, parts);
      case 'tool_result':
        return this.toolResult(line, loc, parts);
      case 'system':
        return this.system(line, loc);
      default:
        return { kind: 'unknown', type: type === '' ? '(no type)' : type, raw: line, ...this.side(line, loc) };
    }
  }

  private assistant(line: Record<string, unknown>, loc: SourceLocation, parts: readonly unknown[]): TranscriptRecord {
    const blocks: ContentBlock[] = [];
    for (const part of parts) {
      if (!isRecord(part)) continue;
      if (isRecord(part.functionCall)) {
        const call = part.functionCall;
        const id = str(call.id) ?? `${str(line.uuid) ?? loc.line}#${blocks.length}`;
        blocks.push({ kind: 'tool-use', id: createToolUseId(id), name: str(call.name) ?? '', input: call.args ?? {} });
      } else if (typeof part.text === 'string') {
        if (part.text === '') continue;
        blocks.push(
          part.thought === true ? { kind: 'thinking', thinking: part.text } : { kind: 'text', text: part.text },
        );
      } else blocks.push({ kind: 'unknown', type: partType(part), raw: part });
    }
    const envelope = this.envelope(line, loc);
    const messageId = this.pendingResponseId ?? String(envelope.uuid);
    this.pendingResponseId = undefined;
    return {
      kind: 'assistant',
      ...envelope,
      messageId,
      requestId: undefined,
      model: str(line.model) ?? UNKNOWN_QWEN_MODEL,
      content: blocks,
      usage: usageOfQwenMetadata(line.usageMetadata),
      stopReason: undefined,
      isApiErrorMessage: false,
      isSynthetic: false,
    };
  }

  /** A `tool_result` line: one `tool-result` block per `functionResponse` (0.24.4 writes one a line). */
  private toolResult(line: Record<string, unknown>, loc: SourceLocation, parts: readonly unknown[]): TranscriptRecord {
    const recorded = isRecord(line.toolCallResult) ? line.toolCallResult : undefined;
    const durationMs = this.toolDurations.get(str(recorded?.callId) ?? '');
    // The tool's own run time, from its telemetry line, kept beside what the result line says.
    const result = recorded === undefined || durationMs === undefined ? recorded : { ...recorded, durationMs };
    const failed = str(result?.status) === 'error';
    const blocks: ContentBlock[] = [];
    for (const part of parts) {
      if (!isRecord(part) || !isRecord(part.functionResponse)) continue;
      const id = str(part.functionResponse.id) ?? str(result?.callId) ?? `${str(line.uuid) ?? loc.line}#orphan`;
      blocks.push({
        kind: 'tool-result',
        toolUseId: createToolUseId(id),
        content: resultContentOf(part),
        isError: failed,
      });
    }
    if (blocks.length === 0) return this.user(line, loc, textOf(parts), result, true);
    return this.user(line, loc, blocks, result, false);
  }

  private system(line: Record<string, unknown>, loc: SourceLocation): TranscriptRecord {
    const subtype = str(line.subtype) ?? '(no subtype)';
    const payload = isRecord(line.systemPayload) ? line.systemPayload : {};
    const event = isRecord(payload.uiEvent) ? payload.uiEvent : undefined;
    const name = str(event?.['event.name']);
    if (name === API_RESPONSE) this.pendingResponseId = str(event?.response_id);
    const callId = str(event?.call_id);
    const durationMs = num(event?.duration_ms);
    if (name === TOOL_CALL && callId !== undefined && durationMs !== undefined)
      this.toolDurations.set(callId, durationMs);
    if (name === API_ERROR) {
      const message = str(event?.error) ?? str(event?.error_message) ?? 'API error';
      const envelope = this.envelope(line, loc);
      const data = event ?? {};
      return {
        kind: 'system',
        ...envelope,
        subtype: 'api_error',
        content: message,
        level: 'error',
        isMeta: false,
        logicalParentUuid: undefined,
        data,
      };
    }
    return {
      kind: 'meta',
      type: `qwen:${subtype}${name === undefined ? '' : `:${name}`}`,
      data: line,
      ...this.side(line, loc),
    };
  }

  private user(
    line: Record<string, unknown>,
    loc: SourceLocation,
    content: string | readonly ContentBlock[],
    toolUseResult: unknown,
    isMeta: boolean,
  ): TranscriptRecord {
    return {
      kind: 'user',
      ...this.envelope(line, loc),
      content,
      isMeta,
      isCompactSummary: false,
      toolUseResult,
      hasToolUseResult: toolUseResult !== undefined,
      sourceToolAssistantUuid: undefined,
    };
  }

  private envelope(line: Record<string, unknown>, loc: SourceLocation): ChainEnvelope {
    const uuid = str(line.uuid) ?? `${this.fileSessionId ?? this.file}:${loc.line}`;
    const parent = str(line.parentUuid);
    const sessionId = str(line.sessionId) ?? this.fileSessionId;
    return {
      uuid: createRecordUuid(uuid),
      parentUuid: parent === undefined ? null : (createRecordUuid(parent) as RecordUuid),
      timestamp: stamp(line.timestamp),
      sessionId: sessionId === undefined ? undefined : createSessionId(sessionId),
      cwd: str(line.cwd),
      version: str(line.version),
      gitBranch: str(line.gitBranch),
      isSidechain: false,
      agentId: undefined,
      loc,
    };
  }

  private side(line: Record<string, unknown>, loc: SourceLocation) {
    const sessionId = str(line.sessionId) ?? this.fileSessionId;
    return {
      sessionId: sessionId === undefined ? undefined : createSessionId(sessionId),
      timestamp: stamp(line.timestamp),
      loc,
    };
  }

  private issue(loc: SourceLocation, code: ParseIssue['code'], message: string): ParseIssue {
    return { code, file: this.file, line: loc.line, message };
  }
}

/** A user line the client wrote itself rather than the person (`provenance` other than `real_user`). */
function isMetaProvenance(value: unknown): boolean {
  return typeof value === 'string' && value !== 'real_user';
}

function stamp(value: unknown): IsoTimestamp | undefined {
  return typeof value === 'string' && value !== '' ? createIsoTimestamp(value) : undefined;
}
