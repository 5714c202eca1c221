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
import { claudeModelId } from '../../model/model-id.js';
import type { RecordEvent } from '../../model/raw.js';
import type { AssistantRecord, ChainEnvelope, TranscriptRecord, UserRecord } from '../../model/record.js';
import { unknownModelOf } from '../../model/unknown-model.js';
import { shellOutcomeOf } from './shell.js';
import { usageOfRecord } from './usage.js';

/** Event types kept whole as `meta` records: bookkeeping with no message, call or usage of its own. */
const META_EVENTS = new Set([
  'session.start',
  'session.resume',
  'session.model_change',
  'session.permissions_changed',
  'session.shutdown',
  'session.info',
  'session.warning',
  'session.truncation',
  'session.compaction_start',
  'session.compaction_complete',
  'session.context_changed',
  'session.mode_changed',
  'session.plan_changed',
  'session.title_changed',
  'session.workspace_file_changed',
  'session.task_complete',
  'system.message',
  'system.notification',
  'assistant.turn_start',
  'assistant.turn_end',
  'assistant.intent',
  'assistant.reasoning',
  'hook.start',
  'hook.end',
  'permission.requested',
  'permission.completed',
  'tool.execution_start',
  'tool.execution_partial_result',
  'tool.execution_progress',
  'tool.user_requested',
  'abort',
]);

/** What a call's `tool.execution_start` says that its result does not: when it started, and its MCP server and tool. */
interface CallStart {
  readonly at: IsoTimestamp | undefined;
  readonly mcpServerName: string | undefined;
  readonly mcpToolName: string | undefined;
}

/** The model named for a session whose events name none (never priced). */
export const UNKNOWN_COPILOT_MODEL = unknownModelOf('copilot');

/**
 * Decodes one Copilot CLI `events.jsonl`, line by line: every line is `{type, data, id, timestamp, parentId}`.
 * Stateful (one per file): the session's cwd, version and model come from `session.start` and later changes, and a
 * call's `tool.execution_start` time is held for its `tool.execution_complete`, so a result carries the client's
 * own start and end of the tool.
 */
export class CopilotDecoder {
  private sessionId: string | undefined;
  private cwd: string | undefined;
  private version: string | undefined;
  private gitBranch: string | undefined;
  private model: string | undefined;
  private previousUuid: RecordUuid | null = null;
  /** Calls asked for (`assistant.message.toolRequests`, else the start line), by id: name and arguments. */
  private readonly requested = new Map<string, { readonly name: string; readonly input: unknown }>();
  /** `tool.execution_start` of each call by id: its time, and name and arguments for a call no message asked for. */
  private readonly starts = new Map<string, CallStart>();

  constructor(
    private readonly file: string,
    fileSessionId: string | undefined,
  ) {
    this.sessionId = fileSessionId;
  }

  /** Decode one line; records and issues go to `emit`. */
  decodeLine(text: string, loc: SourceLocation, emit: (event: RecordEvent) => void): void {
    const lines = parseObjectLines(text, (code, message) =>
      emit({ kind: 'issue', issue: this.issue(loc, code, message) }),
    );
    let first = true;
    const out = (record: TranscriptRecord): void => {
      if (record.kind === 'unknown') {
        const message = `unknown event type "${record.type}" kept as raw data`;
        emit({ kind: 'issue', issue: this.issue(loc, 'unknown_record', message) });
      }
      emit({ kind: 'record', record, byteLength: first ? text.length : 0 });
      first = false;
      if ('uuid' in record) this.previousUuid = record.uuid;
    };
    for (const line of lines) this.decodeEvent(line, loc, out);
  }

  private decodeEvent(line: Record<string, unknown>, loc: SourceLocation, out: (r: TranscriptRecord) => void): void {
    const type = str(line.type) ?? '';
    const data = isRecord(line.data) ? line.data : {};
    const timestamp = stamp(line.timestamp);
    const id = str(line.id) ?? `${this.sessionId ?? this.file}:${loc.line}`;
    switch (type) {
      case 'session.start':
      case 'session.resume':
        this.noteContext(data);
        break;
      case 'session.model_change':
        this.model = str(data.newModel) ?? this.model;
        break;
      case 'user.message':
        out(this.user(id, textOrKept(data.content, 'user content'), undefined, timestamp, loc));
        return;
      case 'assistant.message':
        out(this.assistantMessage(id, data, timestamp, loc));
        return;
      case 'session.usage_record': {
        const usage = isRecord(data.usage) ? data.usage : {};
        const model = str(usage.model) ?? this.model ?? UNKNOWN_COPILOT_MODEL;
        const record = this.assistant(id, str(usage.apiCallId) ?? id, model, [], timestamp, loc);
        out({ ...record, usage: usageOfRecord(usage) });
        return;
      }
      case 'tool.execution_start':
        this.noteStart(id, data, timestamp, loc, out);
        break;
      case 'tool.execution_complete':
        out(this.result(id, data, timestamp, loc));
        return;
      case 'session.error': {
        const message = str(data.message) ?? str(data.errorType) ?? 'error';
        out(this.system(id, 'api_error', message, 'error', data, timestamp, loc));
        return;
      }
      default:
        if (!META_EVENTS.has(type)) {
          out({ kind: 'unknown', type: type === '' ? '(no type)' : type, raw: line, ...this.side(timestamp, loc) });
          return;
        }
    }
    out({ kind: 'meta', type: `copilot:${type}`, data, ...this.side(timestamp, loc) });
  }

  private noteContext(data: Record<string, unknown>): void {
    this.sessionId = str(data.sessionId) ?? this.sessionId;
    this.version = str(data.copilotVersion) ?? this.version;
    this.model = str(data.selectedModel) ?? this.model;
    const context = isRecord(data.context) ? data.context : {};
    this.cwd = str(context.cwd) ?? this.cwd;
    this.gitBranch = str(context.branch) ?? this.gitBranch;
  }

  private assistantMessage(
    id: string,
    data: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
  ): AssistantRecord {
    const blocks: ContentBlock[] = [];
    const reasoning = str(data.reasoningText);
    if (reasoning !== undefined && reasoning !== '') blocks.push({ kind: 'thinking', thinking: reasoning });
    const text = textOrKept(data.content, 'assistant content');
    if (text !== '') blocks.push(...(typeof text === 'string' ? [{ kind: 'text' as const, text }] : text));
    for (const request of Array.isArray(data.toolRequests) ? data.toolRequests : []) {
      const callId = isRecord(request) ? str(request.toolCallId) : undefined;
      if (!isRecord(request) || callId === undefined) {
        // no call to pair a result with: kept as it was written
        blocks.push({ kind: 'unknown', type: 'tool request without toolCallId', raw: request });
        continue;
      }
      const name = str(request.name) ?? '';
      this.requested.set(callId, { name, input: request.arguments });
      blocks.push({ kind: 'tool-use', id: createToolUseId(callId), name, input: request.arguments });
    }
    this.model = str(data.model) ?? this.model;
    const record = this.assistant(
      id,
      str(data.apiCallId) ?? str(data.messageId) ?? id,
      this.model,
      blocks,
      timestamp,
      loc,
    );
    // 1.0.64 and 1.0.68 write only the output tokens of a response, on its message: its input is not known.
    const outputTokens = num(data.outputTokens);
    if (outputTokens === undefined) return record;
    return { ...record, usage: { ...usageOfRecord({ outputTokens }), inputUnrecorded: true } };
  }

  /**
   * A call's start: held for its result. A call no message asked for (a tool the client ran itself) becomes an
   * assistant record of its own here, so its result pairs.
   */
  private noteStart(
    id: string,
    data: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    out: (r: TranscriptRecord) => void,
  ): void {
    const callId = str(data.toolCallId);
    if (callId === undefined) return;
    const name = str(data.toolName) ?? '';
    this.starts.set(callId, {
      at: timestamp,
      mcpServerName: str(data.mcpServerName),
      mcpToolName: str(data.mcpToolName),
    });
    if (this.requested.has(callId)) return;
    this.requested.set(callId, { name, input: data.arguments });
    const block: ContentBlock = { kind: 'tool-use', id: createToolUseId(callId), name, input: data.arguments };
    out(this.assistant(`${id}/call`, `${id}/call`, str(data.model) ?? this.model, [block], timestamp, loc));
  }

  private result(
    id: string,
    data: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
  ): UserRecord {
    const callId = str(data.toolCallId) ?? `${id}#orphan`;
    const result = isRecord(data.result) ? data.result : {};
    const error = isRecord(data.error) ? data.error : undefined;
    const content = str(result.content) ?? str(error?.message) ?? (typeof data.error === 'string' ? data.error : '');
    const call = this.requested.get(callId);
    const shell = call === undefined ? undefined : shellOutcomeOf(call.name, call.input, content, data);
    const failed = data.success === false || shell?.exit.failed === true;
    const start = this.starts.get(callId);
    // The start line's facts the result lacks; absent ones are left out, not written as undefined.
    const toolUseResult = {
      ...data,
      ...(start?.at === undefined ? {} : { startedAt: start.at }),
      ...(start?.mcpServerName === undefined ? {} : { mcpServerName: start.mcpServerName }),
      ...(start?.mcpToolName === undefined ? {} : { mcpToolName: start.mcpToolName }),
    };
    const block: ContentBlock = { kind: 'tool-result', toolUseId: createToolUseId(callId), content, isError: failed };
    return this.user(id, [block], toolUseResult, timestamp, loc);
  }

  private envelope(id: string, timestamp: IsoTimestamp | undefined, loc: SourceLocation): ChainEnvelope {
    return {
      uuid: createRecordUuid(id),
      parentUuid: this.previousUuid,
      timestamp,
      sessionId: this.sessionId === undefined ? undefined : createSessionId(this.sessionId),
      cwd: this.cwd,
      version: this.version,
      gitBranch: this.gitBranch,
      isSidechain: false,
      agentId: undefined,
      loc,
    };
  }

  private assistant(
    id: string,
    messageId: string,
    model: string | undefined,
    content: readonly ContentBlock[],
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
  ): AssistantRecord {
    return {
      kind: 'assistant',
      ...this.envelope(id, timestamp, loc),
      messageId,
      requestId: undefined,
      // Anthropic's id, not Copilot's dotted one: the same model as other agents' sessions name it
      model: model === undefined ? UNKNOWN_COPILOT_MODEL : claudeModelId(model),
      content,
      usage: undefined,
      stopReason: undefined,
      isApiErrorMessage: false,
      isSynthetic: false,
    };
  }

  private user(
    id: string,
    content: string | readonly ContentBlock[],
    toolUseResult: unknown,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
  ): UserRecord {
    return {
      kind: 'user',
      ...this.envelope(id, timestamp, loc),
      content,
      isMeta: false,
      isCompactSummary: false,
      toolUseResult,
      hasToolUseResult: toolUseResult !== undefined,
      sourceToolAssistantUuid: undefined,
    };
  }

  private system(
    id: string,
    subtype: string,
    content: string | undefined,
    level: string | undefined,
    data: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
  ): TranscriptRecord {
    const envelope = this.envelope(id, timestamp, loc);
    return { kind: 'system', ...envelope, subtype, content, level, isMeta: false, logicalParentUuid: undefined, data };
  }

  private side(timestamp: IsoTimestamp | undefined, loc: SourceLocation) {
    return { sessionId: this.sessionId === undefined ? undefined : createSessionId(this.sessionId), timestamp, loc };
  }

  private issue(loc: SourceLocation, code: ParseIssue['code'], message: string): ParseIssue {
    return { code, file: this.file, line: loc.line, message };
  }
}

function stamp(value: unknown): IsoTimestamp | undefined {
  return typeof value === 'string' && value !== '' ? createIsoTimestamp(value) : undefined;
}

/**
 * A message's content: its text (maybe empty; a list of strings is its lines, as Codex's parts are read), or content
 * that is no text kept raw as one block.
 */
function textOrKept(content: unknown, what: string): string | readonly ContentBlock[] {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.every((part) => typeof part === 'string')) return content.join('\n');
  return content === undefined || content === null ? '' : [{ kind: 'unknown', type: what, raw: content }];
}
