import { isRecord, str } from '../../internal/guards.js';
import { type ContentBlock, resultText } from '../../model/content.js';
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
import type { AssistantRecord, ChainEnvelope, TranscriptRecord, UserRecord } from '../../model/record.js';
import { otherPartsOf, partsOf, partType, resultContentOf, stampOf, textOf, thoughtText } from './parts.js';
import { geminiShellExitOf } from './results/shell.js';
import { geminiCallName } from './tool-names.js';
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
  /**
   * The file folds a model turn with tool calls and no text into the message before it, dropping that turn's tokens
   * (0.20's document: `foldedTurnsOf`).
   */
  readonly foldsTurns?: boolean;
  /** The client's version, when a message of the file tells it (`clientVersionOf`). */
  readonly version?: string | undefined;
  parent: RecordUuid | null;
}

/** The client's notice of a newer version, naming the one running: `Gemini CLI update available! 0.23.0 → 0.24.0`. */
const UPDATE_NOTICE = /^Gemini CLI update available! (\d+\.\d+\.\d+\S*) → /;

/**
 * The client's version as the file tells it: the files record none but in the client's notice of an update (an `info`
 * message), which names the version running (../shared/wild-agents entire-cli-2); undefined when there is none.
 */
export function clientVersionOf(messages: readonly Record<string, unknown>[]): string | undefined {
  for (const message of messages) {
    if (message.type !== 'info' || typeof message.content !== 'string') continue;
    const match = UPDATE_NOTICE.exec(message.content);
    if (match) return match[1];
  }
  return undefined;
}

/** Message types a Gemini session file holds; anything else is kept as an unknown record. */
const systemMessageTypes: ReadonlySet<string> = new Set(['info', 'error', 'warning']);

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
    version: ctx.version,
    gitBranch: undefined,
    isSidechain: ctx.subagentId !== undefined,
    agentId: ctx.subagentId === undefined ? undefined : createSubagentId(ctx.subagentId),
    loc,
  };
}

function userRecord(message: Record<string, unknown>, loc: SourceLocation, ctx: ThreadContext): UserRecord {
  const uuid = uuidOf(message, loc);
  const raw = message.content ?? message.parts;
  const parts = partsOf(raw);
  // The client echoes tool responses back as a user message. The result is already read from its call (with its
  // status and images), so this copy is a meta message: kept, not a prompt, not a second result.
  const echo = parts !== undefined ? isResponseEcho(parts) : typeof raw === 'string' && RESPONSE_ECHO_TEXT.test(raw);
  const content: string | ContentBlock[] =
    parts === undefined ? (typeof raw === 'string' ? raw : otherPartsOf(raw)) : userBlocks(parts);
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

/**
 * 0.61's echo: functionResponse parts, with the images a tool returned as parts beside its response (`inlineData`,
 * `fileData`: the MCP image tool of the corpus, whose call's `result` holds the same parts).
 */
function isResponseEcho(parts: readonly unknown[]): boolean {
  const isResponse = (p: unknown) => isRecord(p) && 'functionResponse' in p;
  const isMedia = (p: unknown) => isRecord(p) && ('inlineData' in p || 'fileData' in p);
  return parts.some(isResponse) && parts.every((p) => isResponse(p) || isMedia(p));
}

/**
 * 0.20's echo, a string: the response of a tool that returned more than its output (the MCP image tool of the
 * corpus: `[Function Response: image]Here is an 8x8 image.[Tool 'image' provided …]<image/png>`).
 */
const RESPONSE_ECHO_TEXT = /^\[Function Response: [^\]\n]+\]/;

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
  const calls = Array.isArray(message.toolCalls) ? message.toolCalls : [];
  const turns = ctx.foldsTurns === true && tokens !== undefined ? foldedTurnsOf(calls, stampOf(message.timestamp)) : 0;
  const base = {
    kind: 'assistant' as const,
    messageId: uuid as string,
    requestId: undefined,
    model: str(message.model),
    usage: tokens ? { ...usageFromGeminiTokens(tokens), ...(turns > 0 ? { turnsUnrecorded: turns } : {}) } : undefined,
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
  blocks.push(...otherPartsOf(message.content ?? message.parts));
  const records: TranscriptRecord[] = [];
  const head: AssistantRecord = { ...base, ...envelope(uuid, timestamp, loc, ctx), content: blocks };
  records.push(head);
  ctx.parent = uuid;

  const results: UserRecord[] = [];
  calls.forEach((call, index) => {
    const entry = isRecord(call) ? call : {};
    const id = createToolUseId(str(entry.id) ?? `${uuid}#${index}`);
    const callUuid = createRecordUuid(`${uuid}/${index}`);
    const start = callStartOf(id, timestamp);
    const callRecord: AssistantRecord = {
      ...base,
      ...envelope(callUuid, start, loc, ctx),
      content: [{ kind: 'tool-use', id, name: geminiCallName(entry), input: entry.args ?? {} }],
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

/**
 * How many model turns after the message's own its calls came from: a call created after an earlier one of the
 * message had completed came from a later response. The client names a call when its response streams in (the epoch
 * in its id, `callStartOf`) and runs a response's calls once it has ended, so one response's calls are all named
 * before any of them completes. 0.20 writes the calls of the turns after a message, turns with calls and no text,
 * into it, and drops their tokens (corpus-agents 0.20.2: its 42 messages and the 100 turns folded into them are 142
 * of the 144 responses served; the other two are a subagent's, not written).
 */
export function foldedTurnsOf(calls: readonly unknown[], messageTime: IsoTimestamp | undefined): number {
  let turns = 0;
  let completed: number | undefined;
  for (const call of calls) {
    const entry = isRecord(call) ? call : {};
    // only a call whose id tells when it was named: another one's start would be the message's time, which may come
    // after its first call completed (0.20's `web` message, 1 ms later)
    const named = callStartOf(str(entry.id) ?? '', messageTime);
    const start = named === messageTime ? undefined : timestampMs(named);
    if (start !== undefined && completed !== undefined && start > completed) turns += 1;
    const end = timestampMs(stampOf(entry.timestamp));
    if (end !== undefined) completed = completed === undefined ? end : Math.max(completed, end);
  }
  return turns;
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
  // A shell command that exited non-zero is "success" to the client, a failed call to us (as in Claude Code).
  const isError =
    (status !== undefined && status !== 'success') ||
    geminiShellExitOf(str(call.name) ?? '', call.args, resultText(content))?.failed === true;
  return {
    kind: 'user',
    ...envelope(uuid, completed ?? start, loc, ctx),
    content: [{ kind: 'tool-result', toolUseId: id, content, isError }],
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

function textOfBlocks(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('\n');
}

function uuidOf(message: Record<string, unknown>, loc: SourceLocation): RecordUuid {
  const id = str(message.id);
  return createRecordUuid(id !== undefined && id !== '' ? id : `~${loc.line}@${loc.file}`);
}
