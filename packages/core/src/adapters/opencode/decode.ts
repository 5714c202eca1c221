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
  type SubagentId,
} from '../../model/ids.js';
import type { ParseIssue, SourceLocation } from '../../model/issue.js';
import type { RecordEvent } from '../../model/raw.js';
import type { ChainEnvelope, TranscriptRecord } from '../../model/record.js';
import { unknownModelOf } from '../../model/unknown-model.js';
import { openCodeShellExit } from './type-result.js';
import { usageOfOpenCodeTokens } from './usage.js';

/** The model named for an assistant message that names none (never priced). */
export const UNKNOWN_OPENCODE_MODEL = unknownModelOf('opencode');

/** What a part needs of the message it belongs to (written on the line before its parts). */
interface MessageInfo {
  readonly id: string;
  readonly role: string;
  readonly model: string;
  readonly created: IsoTimestamp | undefined;
  readonly cwd: string | undefined;
}

/**
 * Decodes one snapshot of an OpenCode session (`snapshot.ts`), line by line:
 * - `snapshot` (the header) and `session` (the session row: title, directory, version) are meta records; the
 *   title is a title record;
 * - `message`: a user message's line is meta (its text is in its parts); an assistant message's line is an
 *   assistant record carrying the response's usage (`tokens`) and model (`modelID`), with no content; one with an
 *   `error` is an API error (system record);
 * - `part`: `text` (the person's prompt in a user message, the model's text in an assistant one), `reasoning`
 *   (thinking), `tool` (the call, then its result when its state is `completed` or `error`: two records of one
 *   line), the rest (`step-start`, `step-finish`, `patch`, `file`, `agent`, `subtask`, `compaction`, `retry`, …)
 *   meta records kept whole.
 * Stateful (one per file): a part takes its message's role, model and cwd from the line before it.
 */
export class OpenCodeDecoder {
  private readonly messages = new Map<string, MessageInfo>();
  private cwd: string | undefined;
  private version: string | undefined;
  private sessionId: string | undefined;
  private previousUuid: RecordUuid | null = null;

  constructor(
    private readonly file: string,
    private readonly subagentId: string | undefined,
  ) {}

  decodeLine(text: string, loc: SourceLocation, emit: (event: RecordEvent) => void): void {
    const lines = parseObjectLines(text, (code, message) =>
      emit({ kind: 'issue', issue: this.issue(loc, code, message) }),
    );
    let first = true;
    // each object decoded after the one before it, its records chained to those of the earlier ones
    for (const line of lines) {
      for (const record of this.decodeRecords(line, loc)) {
        if (record.kind === 'unknown') {
          const message = `unknown line type "${record.type}" kept as raw data`;
          emit({ kind: 'issue', issue: this.issue(loc, 'unknown_record', message) });
        }
        if ('uuid' in record) this.previousUuid = record.uuid;
        emit({ kind: 'record', record, byteLength: first ? text.length : 0 });
        first = false;
      }
    }
  }

  private decodeRecords(line: Record<string, unknown>, loc: SourceLocation): TranscriptRecord[] {
    const type = str(line.type) ?? '';
    if (type === 'snapshot') {
      this.sessionId ??= str(line.sessionId);
      return [this.meta('opencode:snapshot', line, loc, undefined)];
    }
    if (type === 'session' && isRecord(line.session)) return this.session(line.session, loc);
    if (type === 'message' && isRecord(line.message)) return [this.message(line.message, loc)];
    if (type === 'part' && isRecord(line.part)) return this.part(line.part, loc);
    return [{ kind: 'unknown', type: type === '' ? '(no type)' : type, raw: line, ...this.side(loc, undefined) }];
  }

  private session(session: Record<string, unknown>, loc: SourceLocation): TranscriptRecord[] {
    this.sessionId = str(session.id) ?? this.sessionId;
    this.cwd = str(session.directory) ?? this.cwd;
    this.version = str(session.version) ?? this.version;
    const time = isRecord(session.time) ? session.time : {};
    const at = stamp(num(session.time_created) ?? num(time.created));
    const title = str(session.title);
    const records: TranscriptRecord[] = [this.meta('opencode:session', session, loc, at)];
    // OpenCode's placeholder until a title is made: "New session - <ISO time>" (child sessions get "… (@agent)").
    if (title !== undefined && title !== '' && !/^(New|Child) session - \d{4}-/.test(title)) {
      records.push({ kind: 'title', source: 'ai-title', title, ...this.side(loc, at) });
    }
    return records;
  }

  private message(message: Record<string, unknown>, loc: SourceLocation): TranscriptRecord {
    const id = str(message.id) ?? `${this.file}:${loc.line}`;
    const role = str(message.role) ?? '';
    const time = isRecord(message.time) ? message.time : {};
    const created = stamp(num(time.created));
    const path = isRecord(message.path) ? message.path : {};
    const model = str(message.modelID) ?? (isRecord(message.model) ? str(message.model.modelID) : undefined);
    const info: MessageInfo = {
      id,
      role,
      model: model ?? UNKNOWN_OPENCODE_MODEL,
      created,
      cwd: str(path.cwd) ?? this.cwd,
    };
    this.messages.set(id, info);
    if (role !== 'assistant') return this.meta(`opencode:message:${role || '(no role)'}`, message, loc, created);
    const envelope = this.envelope(`${id}`, loc, created, info.cwd);
    if (message.error !== undefined) {
      const error = isRecord(message.error) ? message.error : { message: message.error };
      const data = isRecord(error.data) ? error.data : {};
      return {
        kind: 'system',
        ...envelope,
        subtype: 'api_error',
        content: str(data.message) ?? str(error.message) ?? str(error.name) ?? 'API error',
        level: 'error',
        isMeta: false,
        logicalParentUuid: undefined,
        data: message,
      };
    }
    return {
      kind: 'assistant',
      ...envelope,
      messageId: id,
      requestId: undefined,
      model: info.model,
      content: [],
      usage: usageOfOpenCodeTokens(message.tokens),
      stopReason: str(message.finish),
      isApiErrorMessage: false,
      isSynthetic: false,
    };
  }

  private part(part: Record<string, unknown>, loc: SourceLocation): TranscriptRecord[] {
    const id = str(part.id) ?? `${this.file}:${loc.line}`;
    const type = str(part.type) ?? '(no type)';
    const message = this.messages.get(str(part.messageID) ?? '');
    const time = isRecord(part.time) ? part.time : {};
    const at = stamp(num(time.start)) ?? message?.created;
    if (message?.role === 'user') {
      if (type === 'text' && typeof part.text === 'string') {
        // Text the client added itself (a file's contents, a reminder) is `synthetic`.
        const isMeta = part.synthetic === true;
        return [this.user(id, loc, at, part.text, undefined, isMeta)];
      }
      return [this.meta(`opencode:part:${type}`, part, loc, at)];
    }
    if (message === undefined) return [this.meta(`opencode:part:${type}`, part, loc, at)];
    switch (type) {
      case 'text':
        if (typeof part.text !== 'string' || part.text === '') break;
        return [this.assistant(id, loc, at, message, [{ kind: 'text', text: part.text }])];
      case 'reasoning':
        if (typeof part.text !== 'string' || part.text === '') break;
        return [this.assistant(id, loc, at, message, [{ kind: 'thinking', thinking: part.text }])];
      case 'tool':
        return this.tool(id, part, loc, message);
      default:
        break;
    }
    return [this.meta(`opencode:part:${type}`, part, loc, at)];
  }

  /** A tool part: its call, and its result once the state is `completed` or `error` (`pending`/`running`: none). */
  private tool(id: string, part: Record<string, unknown>, loc: SourceLocation, message: MessageInfo) {
    const state = isRecord(part.state) ? part.state : {};
    const time = isRecord(state.time) ? state.time : {};
    const callId = createToolUseId(str(part.callID) ?? id);
    const started = stamp(num(time.start)) ?? message.created;
    const call = this.assistant(id, loc, started, message, [
      { kind: 'tool-use', id: callId, name: str(part.tool) ?? '', input: state.input ?? {} },
    ]);
    const status = str(state.status);
    if (status !== 'completed' && status !== 'error') return [call];
    // A command that exited non-zero is `completed` to OpenCode, a failed call here (`metadata.exit`).
    const failed =
      status === 'error' ||
      openCodeShellExit({ name: str(part.tool) ?? '', input: state.input }, state)?.exit.failed === true;
    const content = failed ? (str(state.error) ?? '') : (str(state.output) ?? '');
    const result = this.user(
      `${id}:result`,
      loc,
      stamp(num(time.end)) ?? started,
      [{ kind: 'tool-result', toolUseId: callId, content, isError: failed }],
      state,
      false,
    );
    return [call, result];
  }

  private assistant(
    uuid: string,
    loc: SourceLocation,
    at: IsoTimestamp | undefined,
    message: MessageInfo,
    content: ContentBlock[],
  ): TranscriptRecord {
    return {
      kind: 'assistant',
      ...this.envelope(uuid, loc, at, message.cwd),
      messageId: message.id,
      requestId: undefined,
      model: message.model,
      content,
      usage: undefined,
      stopReason: undefined,
      isApiErrorMessage: false,
      isSynthetic: false,
    };
  }

  private user(
    uuid: string,
    loc: SourceLocation,
    at: IsoTimestamp | undefined,
    content: string | readonly ContentBlock[],
    toolUseResult: unknown,
    isMeta: boolean,
  ): TranscriptRecord {
    return {
      kind: 'user',
      ...this.envelope(uuid, loc, at, this.cwd),
      content,
      isMeta,
      isCompactSummary: false,
      toolUseResult,
      hasToolUseResult: toolUseResult !== undefined,
      sourceToolAssistantUuid: undefined,
    };
  }

  private envelope(
    uuid: string,
    loc: SourceLocation,
    at: IsoTimestamp | undefined,
    cwd: string | undefined,
  ): ChainEnvelope {
    return {
      uuid: createRecordUuid(uuid),
      // OpenCode orders a session by its rows, not by a chain: each record follows the one before it.
      parentUuid: this.previousUuid,
      timestamp: at,
      sessionId: this.sessionId === undefined ? undefined : createSessionId(this.sessionId),
      cwd: cwd ?? this.cwd,
      version: this.version,
      gitBranch: undefined,
      isSidechain: this.subagentId !== undefined,
      agentId: this.subagentId as SubagentId | undefined,
      loc,
    };
  }

  private meta(type: string, data: Record<string, unknown>, loc: SourceLocation, at: IsoTimestamp | undefined) {
    return { kind: 'meta' as const, type, data, ...this.side(loc, at) };
  }

  private side(loc: SourceLocation, at: IsoTimestamp | undefined) {
    return {
      sessionId: this.sessionId === undefined ? undefined : createSessionId(this.sessionId),
      timestamp: at,
      loc,
    };
  }

  private issue(loc: SourceLocation, code: ParseIssue['code'], message: string): ParseIssue {
    return { code, file: this.file, line: loc.line, message };
  }
}

function stamp(ms: number | undefined): IsoTimestamp | undefined {
  if (ms === undefined || !Number.isFinite(ms)) return undefined;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : createIsoTimestamp(date.toISOString());
}
