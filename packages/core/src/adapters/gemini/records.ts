import { isRecord, str } from '../../internal/guards.js';
import type { ContentBlock, ResultBlock, ResultContent } from '../../model/content.js';
import {
  createIsoTimestamp,
  createRecordUuid,
  createSessionId,
  createSubagentId,
  createToolUseId,
  type IsoTimestamp,
  type RecordUuid,
  timestampMs,
} from '../../model/ids.js';
import type { SourceLocation } from '../../model/issue.js';
import type { AssistantRecord, ChainEnvelope, MetaRecord, TranscriptRecord, UserRecord } from '../../model/record.js';
import { geminiTokensOf, usageFromGeminiTokens } from './usage.js';

/** What every record of one Gemini file shares, plus the chain pointer (the previous record's uuid). */
export interface ThreadContext {
  readonly file: string;
  readonly sessionId: string | undefined;
  readonly cwd: string | undefined;
  /** Ids of user messages that are a subagent's instructions, not something the user typed (see `subagentPrompts`). */
  readonly injected: ReadonlySet<string>;
  /** The subagent's id for a subagent file (`chats/<parent session>/<agent id>.jsonl`); undefined for a main file. */
  readonly subagentId: string | undefined;
  parent: RecordUuid | null;
}

/**
 * User messages that carry a subagent's instructions: 0.20 writes the subagent's whole prompt (its template around
 * the objective) as a user message right after the user's own, before the call that runs the subagent. Such a
 * message follows another user message and contains the `objective`/`prompt` of a subagent call in the next model
 * message. Kept, as meta.
 */
export function subagentPrompts(messages: readonly Record<string, unknown>[]): Set<string> {
  const found = new Set<string>();
  messages.forEach((message, i) => {
    const previous = messages[i - 1];
    const next = messages[i + 1];
    if (message.type !== 'user' || previous?.type !== 'user' || next === undefined) return;
    const text = textOf(message.content ?? message.parts);
    const calls = Array.isArray(next.toolCalls) ? next.toolCalls : [];
    const carries = calls.some((call) => {
      if (!isRecord(call) || !isRecord(call.args)) return false;
      const brief = str(call.args.objective) ?? str(call.args.prompt);
      return brief !== undefined && brief.length >= 8 && text !== brief && text.includes(brief);
    });
    const id = str(message.id);
    if (carries && id !== undefined) found.add(id);
  });
  return found;
}

/** Message types a Gemini session file holds; anything else is kept as an unknown record. */
const systemMessageTypes: ReadonlySet<string> = new Set(['info', 'error', 'warning']);

/** The session header (first line of a JSONL file, the top level of a JSON document) as a meta record. */
export function headerRecord(header: Record<string, unknown>, loc: SourceLocation): MetaRecord {
  const { messages, ...data } = header;
  return {
    kind: 'meta',
    type: 'gemini-session',
    sessionId: sessionIdOf(header),
    timestamp: stampOf(header.startTime),
    loc,
    data: Array.isArray(messages) ? { ...data, messageCount: messages.length } : data,
  };
}

/**
 * A `{"$set": {…}}` update line as a meta record. `$set.messages` (the client's rebuilt view, written at start and
 * on resume without tokens, tool calls or thoughts) is kept as a count only: the standalone message lines are the
 * record of what happened.
 */
export function setRecord(patch: Record<string, unknown>, loc: SourceLocation): MetaRecord {
  const { messages, ...data } = patch;
  return {
    kind: 'meta',
    type: '$set',
    sessionId: undefined,
    timestamp: stampOf(patch.lastUpdated),
    loc,
    data: Array.isArray(messages) ? { ...data, messages: messages.length } : data,
  };
}

/**
 * An earlier line of a message that a later line with the same id replaced (0.61 writes a model turn first without,
 * then with its tool calls): kept as a meta record at its own place, pointing at the message.
 */
export function supersededRecord(message: Record<string, unknown>, loc: SourceLocation): MetaRecord {
  return {
    kind: 'meta',
    type: 'gemini-superseded',
    sessionId: undefined,
    timestamp: stampOf(message.timestamp),
    loc,
    data: { id: message.id },
  };
}

/** One Gemini message → its records (user prompt, assistant response with calls and results, info, unknown). */
export function messageRecords(
  message: Record<string, unknown>,
  loc: SourceLocation,
  ctx: ThreadContext,
): TranscriptRecord[] {
  const type = str(message.type) ?? '';
  if (type === 'user') return [userRecord(message, loc, ctx)];
  if (type === 'gemini' || type === 'model') return assistantRecords(message, loc, ctx);
  if (systemMessageTypes.has(type)) {
    const uuid = uuidOf(message, loc);
    const record = {
      kind: 'system' as const,
      ...envelope(uuid, stampOf(message.timestamp), loc, ctx),
      subtype: type,
      content: textOf(message.content ?? message.parts),
      level: type === 'info' ? 'info' : type,
      isMeta: false,
      logicalParentUuid: undefined,
      data: message,
    };
    ctx.parent = uuid;
    return [record];
  }
  return [
    {
      kind: 'unknown',
      type: type === '' ? '(message without type)' : `message:${type}`,
      raw: message,
      sessionId: ctx.sessionId === undefined ? undefined : createSessionId(ctx.sessionId),
      timestamp: stampOf(message.timestamp),
      loc,
    },
  ];
}

function envelope(
  uuid: RecordUuid,
  timestamp: IsoTimestamp | undefined,
  loc: SourceLocation,
  ctx: ThreadContext,
): ChainEnvelope {
  return {
    uuid,
    parentUuid: ctx.parent,
    timestamp,
    sessionId: ctx.sessionId === undefined ? undefined : createSessionId(ctx.sessionId),
    cwd: ctx.cwd,
    version: undefined,
    gitBranch: undefined,
    isSidechain: ctx.subagentId !== undefined,
    agentId: ctx.subagentId === undefined ? undefined : createSubagentId(ctx.subagentId),
    loc,
  };
}

function userRecord(message: Record<string, unknown>, loc: SourceLocation, ctx: ThreadContext): UserRecord {
  const uuid = uuidOf(message, loc);
  const raw = message.content ?? message.parts;
  const parts = Array.isArray(raw) ? raw : undefined;
  // 0.61 echoes each tool response back as a user message of functionResponse parts. The result is already read
  // from its call (with its status), so this copy is a meta message: kept, not a prompt, not a second result.
  const echo = parts !== undefined && parts.length > 0 && parts.every((p) => isRecord(p) && 'functionResponse' in p);
  const content: string | ContentBlock[] =
    parts === undefined ? (typeof raw === 'string' ? raw : '') : userBlocks(parts);
  const record: UserRecord = {
    kind: 'user',
    ...envelope(uuid, stampOf(message.timestamp), loc, ctx),
    content: typeof content !== 'string' && content.every((b) => b.kind === 'text') ? textOfBlocks(content) : content,
    isMeta: echo || ctx.injected.has(uuid),
    isCompactSummary: false,
    toolUseResult: undefined,
    hasToolUseResult: false,
    sourceToolAssistantUuid: undefined,
  };
  ctx.parent = uuid;
  return record;
}

function userBlocks(parts: readonly unknown[]): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const part of parts) {
    if (typeof part === 'string') blocks.push({ kind: 'text', text: part });
    else if (isRecord(part) && typeof part.text === 'string') blocks.push({ kind: 'text', text: part.text });
    else if (isRecord(part) && isRecord(part.inlineData)) {
      blocks.push({
        kind: 'image',
        mediaType: str(part.inlineData.mimeType) ?? 'application/octet-stream',
        data: str(part.inlineData.data) ?? '',
      });
    } else blocks.push({ kind: 'unknown', type: partType(part), raw: part });
  }
  return blocks;
}

/**
 * A model message → one assistant record for its thoughts and text, one per tool call (same `messageId`, so they
 * form one response, stamped with the call's start), then one user record per result (stamped with the call's
 * completion). Usage rides on every record of the response; readers take it once per `messageId`.
 */
function assistantRecords(
  message: Record<string, unknown>,
  loc: SourceLocation,
  ctx: ThreadContext,
): TranscriptRecord[] {
  const uuid = uuidOf(message, loc);
  const timestamp = stampOf(message.timestamp);
  const tokens = geminiTokensOf(message.tokens);
  const base = {
    kind: 'assistant' as const,
    messageId: uuid as string,
    requestId: undefined,
    model: str(message.model),
    usage: tokens ? usageFromGeminiTokens(tokens) : undefined,
    stopReason: undefined,
    isApiErrorMessage: false,
    isSynthetic: false,
  };
  const blocks: ContentBlock[] = [];
  for (const thought of Array.isArray(message.thoughts) ? message.thoughts : []) {
    const text = thoughtText(thought);
    if (text !== '') blocks.push({ kind: 'thinking', thinking: text });
  }
  const text = textOf(message.content ?? message.parts);
  if (text !== '') blocks.push({ kind: 'text', text });
  const records: TranscriptRecord[] = [];
  const head: AssistantRecord = { ...base, ...envelope(uuid, timestamp, loc, ctx), content: blocks };
  records.push(head);
  ctx.parent = uuid;

  const calls = Array.isArray(message.toolCalls) ? message.toolCalls : [];
  const results: UserRecord[] = [];
  calls.forEach((call, index) => {
    const entry = isRecord(call) ? call : {};
    const id = createToolUseId(str(entry.id) ?? `${uuid}#${index}`);
    const callUuid = createRecordUuid(`${uuid}/${index}`);
    const start = callStartOf(id, timestamp);
    const callRecord: AssistantRecord = {
      ...base,
      ...envelope(callUuid, start, loc, ctx),
      content: [{ kind: 'tool-use', id, name: str(entry.name) ?? '(unnamed tool)', input: entry.args ?? {} }],
    };
    records.push(callRecord);
    ctx.parent = callUuid;
    const result = resultRecordOf(entry, id, callUuid, loc, ctx, start);
    if (result) results.push(result);
  });
  for (const result of results) {
    records.push({ ...result, parentUuid: ctx.parent });
    ctx.parent = result.uuid;
  }
  return records;
}

/** The result of a call, or undefined when the call has none yet (no `result` and no final `status`). */
function resultRecordOf(
  call: Record<string, unknown>,
  id: ReturnType<typeof createToolUseId>,
  callUuid: RecordUuid,
  loc: SourceLocation,
  ctx: ThreadContext,
  start: IsoTimestamp | undefined,
): UserRecord | undefined {
  const status = str(call.status);
  const hasResult = Array.isArray(call.result) || call.result !== undefined;
  if (!hasResult && (status === undefined || status === 'executing' || status === 'scheduled')) return undefined;
  const uuid = createRecordUuid(`${callUuid}/result`);
  const { args: _args, result, ...rest } = call;
  const content = resultContentOf(result);
  const completed = stampOf(call.timestamp);
  return {
    kind: 'user',
    ...envelope(uuid, completed ?? start, loc, ctx),
    content: [{ kind: 'tool-result', toolUseId: id, content, isError: status !== undefined && status !== 'success' }],
    isMeta: false,
    isCompactSummary: false,
    toolUseResult: { ...rest, response: responseOf(result) },
    hasToolUseResult: true,
    sourceToolAssistantUuid: callUuid,
  };
}

/** The `functionResponse.response` of a call's result parts (`{output}` or `{error}`), when there is one. */
export function responseOf(result: unknown): unknown {
  if (!Array.isArray(result)) return result;
  for (const part of result) {
    if (isRecord(part) && isRecord(part.functionResponse)) return part.functionResponse.response;
  }
  return undefined;
}

/** A call's result parts → result content: the response's output or error, text parts, inline images. */
function resultContentOf(result: unknown): ResultContent {
  if (result === undefined || result === null) return '';
  if (typeof result === 'string') return result;
  const parts = Array.isArray(result) ? result : [result];
  const blocks: ResultBlock[] = [];
  for (const part of parts) {
    if (isRecord(part) && isRecord(part.functionResponse)) {
      const text = responseText(part.functionResponse.response);
      if (text !== '') blocks.push({ kind: 'text', text });
    } else if (isRecord(part) && typeof part.text === 'string') {
      blocks.push({ kind: 'text', text: part.text });
    } else if (isRecord(part) && isRecord(part.inlineData)) {
      blocks.push({
        kind: 'image',
        mediaType: str(part.inlineData.mimeType) ?? 'application/octet-stream',
        data: str(part.inlineData.data) ?? '',
      });
    } else blocks.push({ kind: 'unknown', type: partType(part), raw: part });
  }
  if (blocks.length === 1 && blocks[0]?.kind === 'text') return blocks[0].text;
  return blocks;
}

/** Text of a function response: its `output`, else its `error`, else its JSON. */
export function responseText(response: unknown): string {
  if (typeof response === 'string') return response;
  if (!isRecord(response)) return response === undefined ? '' : safeJson(response);
  if (typeof response.output === 'string') return response.output;
  if (typeof response.error === 'string') return response.error;
  if (isRecord(response.error) && typeof response.error.message === 'string') return response.error.message;
  return safeJson(response);
}

/**
 * When a call started: the epoch milliseconds in its id (`read_file-1761734387890-c8c3…` in 0.20,
 * `read_file__read_file_1795393653687_0` in 0.61), when they lie within a day of the message; else the message's
 * time. 0.20 folds the calls of several turns into one message, so the message time is not each call's start.
 */
function callStartOf(id: string, messageTime: IsoTimestamp | undefined): IsoTimestamp | undefined {
  const match = /(?:^|[-_])(\d{13})(?:[-_]|$)/.exec(id);
  const epoch = match ? Number(match[1]) : undefined;
  const reference = timestampMs(messageTime);
  if (epoch === undefined) return messageTime;
  if (reference !== undefined && Math.abs(epoch - reference) > 86_400_000) return messageTime;
  return createIsoTimestamp(new Date(epoch).toISOString());
}

function thoughtText(thought: unknown): string {
  if (typeof thought === 'string') return thought;
  if (!isRecord(thought)) return '';
  const subject = str(thought.subject)?.trim() ?? '';
  const description = str(thought.description)?.trim() ?? '';
  if (subject === '') return description;
  return description === '' ? subject : `${subject}\n${description}`;
}

/** Text of a message's content: a string, or the text of its parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof part === 'string' ? part : isRecord(part) ? (str(part.text) ?? '') : ''))
    .filter((t) => t !== '')
    .join('\n');
}

function textOfBlocks(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('\n');
}

function uuidOf(message: Record<string, unknown>, loc: SourceLocation): RecordUuid {
  const id = str(message.id);
  return createRecordUuid(id !== undefined && id !== '' ? id : `~${loc.line}@${loc.file}`);
}

function sessionIdOf(header: Record<string, unknown>) {
  const id = str(header.sessionId);
  return id === undefined ? undefined : createSessionId(id);
}

function stampOf(value: unknown): IsoTimestamp | undefined {
  return typeof value === 'string' && value !== '' ? createIsoTimestamp(value) : undefined;
}

function partType(part: unknown): string {
  if (isRecord(part)) return Object.keys(part)[0] ?? 'object';
  return part === null ? 'null' : typeof part;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
