import { isRecord, num, str } from '../../internal/guards.js';
import { capDepth, MAX_JSON_DEPTH } from '../../internal/json-depth.js';
import { type ContentBlock, resultText } from '../../model/content.js';
import {
  createIsoTimestamp,
  createRecordUuid,
  createSessionId,
  createToolUseId,
  type IsoTimestamp,
  type RecordUuid,
  timestampMs,
} from '../../model/ids.js';
import type { ParseIssue, SourceLocation } from '../../model/issue.js';
import type { AssistantRecord, ChainEnvelope, TranscriptRecord, UserRecord } from '../../model/record.js';
import { codexFailureOf, codexShellExitOf, isCommandOutput } from './errors.js';
import { isInjectedUserText, splitIdePrompt } from './injected.js';
import { imageOf, parseCodexOutput } from './output.js';
import { canonicalCodexToolName, SHELL_TOOLS } from './tool-names.js';
import { type CodexTokenUsage, tokenUsageOf, totalKey, toUsage, usageDelta } from './usage.js';

export type CodexRecordEvent =
  | { readonly kind: 'record'; readonly record: TranscriptRecord; readonly byteLength: number }
  | { readonly kind: 'issue'; readonly issue: ParseIssue };

/** Facts gathered from events that share a call's `call_id` (exit code, duration, failure), for its output. */
type CallFacts = Record<string, unknown>;

/** Event types that repeat what `response_item` lines already hold, or that are folded into a call's output. */
const FOLDED_EVENTS = new Set([
  'user_message',
  'agent_message',
  'agent_reasoning',
  'agent_reasoning_raw_content',
  'agent_reasoning_section_break',
  'item_started',
]);
/** Events whose payload belongs to the call with the same `call_id`. */
const CALL_EVENTS = new Set([
  'exec_command_end',
  'patch_apply_end',
  'mcp_tool_call_end',
  'web_search_end',
  'view_image_tool_call',
  'collab_agent_spawn_end',
  'collab_waiting_end',
  'collab_close_end',
  'collab_agent_interaction_end',
  'dynamic_tool_call_response',
  'image_generation_end',
]);
/** Top-level line types that are bookkeeping: kept as meta records. */
const META_LINES = new Set(['world_state', 'inter_agent_communication_metadata']);
const CALL_ITEMS = new Set([
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'tool_search_call',
  'web_search_call',
  'image_generation_call',
]);
const OUTPUT_ITEMS = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'tool_search_output',
  'local_shell_call_output',
]);
const SPAWN_NOTICE = 'You are the newly spawned agent';
/** A forked child's copied history is re-stamped at the fork: a line this much later is the child's own. */
const FORK_COPY_WINDOW_MS = 5_000;
/** A resumed session's copied history is written at one instant (within a few milliseconds). */
const RESUME_COPY_WINDOW_MS = 1_000;

/**
 * Decodes the lines of one Codex rollout file, in order, into the shared records. Stateful (the model comes from
 * `turn_context`, usage from running totals, a response's items are grouped until its `token_count`), so a file is
 * always read from its first line. Never throws on bad data.
 */
export class CodexDecoder {
  private sessionId: string | undefined;
  private cwd: string | undefined;
  private version: string | undefined;
  private gitBranch: string | undefined;
  private model: string | undefined;
  private response = 0;
  /**
   * Where a response's usage comes among its items: after them (0.87 on: the usage closes the response) or before
   * them (0.34–0.63 write a response's `token_count` when it ends and its items only after its tools ran: the usage
   * opens the response). Every turn of every file of the corpus and the wild set keeps one order, so the first usage
   * decides it: no item before it means usage first.
   */
  private usageOrder: 'closes' | 'opens' | undefined;
  /** The open response has items, or (usage first) its usage already. */
  private openItems = false;
  private openUsage = false;
  private responseTexts = new Set<string>();
  private lastTotal: CodexTokenUsage | undefined;
  private lastTotalKey: string | undefined;
  private previousUuid: RecordUuid | null = null;
  private readonly facts = new Map<string, CallFacts>();
  /** Tool names by call id, for reading their outputs. */
  private readonly callNames = new Map<string, string>();
  /** Shell calls' inputs by call id, until their output: what an exit code means depends on the command. */
  private readonly callInputs = new Map<string, unknown>();
  /** A forked child's copy of its parent's history is being skipped (until the child's own first turn). */
  private forkCopy:
    | { readonly startedMs: number | undefined; readonly windowMs: number; noticeSeen: boolean }
    | undefined;
  private lines = 0;

  constructor(
    private readonly file: string,
    fileSessionId: string | undefined,
  ) {
    this.sessionId = fileSessionId;
  }

  /** Decode one line; records and issues go to `emit`. */
  decodeLine(text: string, loc: SourceLocation, emit: (event: CodexRecordEvent) => void): void {
    this.lines += 1;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      emit({ kind: 'issue', issue: this.issue(loc, 'invalid_json', `invalid JSON: ${messageOf(error)}`) });
      return;
    }
    const capped = capDepth(raw);
    if (capped.replaced > 0) {
      emit({
        kind: 'issue',
        issue: this.issue(
          loc,
          'too_deep',
          `value nested deeper than ${MAX_JSON_DEPTH} levels: ${capped.replaced} part(s) kept as clipped JSON text`,
        ),
      });
    }
    if (!isRecord(capped.value)) {
      emit({ kind: 'issue', issue: this.issue(loc, 'not_an_object', 'line is JSON but not an object') });
      return;
    }
    let first = true;
    const out = (record: TranscriptRecord): void => {
      if (record.kind === 'unknown') {
        emit({
          kind: 'issue',
          issue: this.issue(loc, 'unknown_record', `unknown record type "${record.type}" kept as raw data`),
        });
      }
      emit({ kind: 'record', record, byteLength: first ? text.length : 0 });
      first = false;
      if (record.kind === 'assistant' && record.usage === undefined) this.openItems = true;
      if ('uuid' in record) this.previousUuid = record.uuid;
    };
    this.decodeObject(capped.value, loc, out);
  }

  private decodeObject(line: Record<string, unknown>, loc: SourceLocation, out: (r: TranscriptRecord) => void): void {
    const timestamp = stamp(line.timestamp);
    if (!('payload' in line)) {
      this.decodeLegacy(line, loc, out);
      return;
    }
    const type = str(line.type) ?? '';
    const payload = isRecord(line.payload) ? line.payload : {};
    if (this.forkCopy !== undefined && this.stillForkCopy(type, payload, timestamp)) {
      this.noteTotals(type, payload);
      // The parent's history, copied into a spawned agent's file: kept as a marker, not as the child's turns.
      out(
        this.meta(
          'fork-copy',
          { type, payloadType: str(payload.type) ?? null, callId: str(payload.call_id) ?? str(payload.id) ?? null },
          timestamp,
          loc,
        ),
      );
      return;
    }
    switch (type) {
      case 'session_meta':
        this.sessionMeta(payload, timestamp, loc, out);
        return;
      case 'turn_context':
        this.model = str(payload.model) ?? this.model;
        this.cwd = str(payload.cwd) ?? this.cwd;
        out(this.meta('turn_context', payload, timestamp, loc));
        return;
      case 'response_item':
        this.responseItem(payload, timestamp, loc, out);
        return;
      case 'event_msg':
        this.event(payload, timestamp, loc, out);
        return;
      case 'compacted':
        out(this.system('compact_boundary', str(payload.message), undefined, payload, timestamp, loc));
        return;
      case 'token_usage_record':
        this.usageRecord(payload, timestamp, loc, out);
        return;
      default:
        if (META_LINES.has(type)) out(this.meta(type, payload, timestamp, loc));
        else out({ kind: 'unknown', type: type === '' ? '(no type)' : type, raw: line, ...this.side(timestamp, loc) });
    }
  }

  /** Pre-`session_meta` files (Aug 2025): a bare header, then bare items without timestamps. */
  private decodeLegacy(line: Record<string, unknown>, loc: SourceLocation, out: (r: TranscriptRecord) => void): void {
    const type = str(line.type);
    if (this.lines === 1 && type === undefined && typeof line.id === 'string') {
      this.sessionMeta(line, stamp(line.timestamp), loc, out);
      return;
    }
    if (type === undefined && line.record_type !== undefined) {
      out(this.meta(`record_type:${String(line.record_type)}`, line, undefined, loc));
      return;
    }
    this.responseItem(line, undefined, loc, out);
  }

  private sessionMeta(
    payload: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    out: (r: TranscriptRecord) => void,
  ): void {
    const first = this.lines === 1;
    if (first) {
      this.sessionId = str(payload.id) ?? this.sessionId;
      this.cwd = str(payload.cwd);
      this.version = str(payload.cli_version);
      const git = isRecord(payload.git) ? payload.git : {};
      this.gitBranch = str(git.branch);
      // A spawned (forked) agent's file begins with a copy of its parent's history: cut it.
      const source = isRecord(payload.source) ? payload.source : {};
      const spawn = isRecord(source.subagent) && isRecord(source.subagent.thread_spawn);
      if (typeof payload.forked_from_id === 'string' || spawn) {
        this.forkCopy = { startedMs: timestampMs(timestamp), windowMs: FORK_COPY_WINDOW_MS, noticeSeen: false };
      }
    } else if (this.lines <= 3 && this.forkCopy === undefined && str(payload.id) !== this.sessionId) {
      // A session resumed into a new file (0.36 `codex resume`): another session's meta, then its history copied
      // at one instant. The copy stays that session's; this one starts after it.
      this.forkCopy = { startedMs: timestampMs(timestamp), windowMs: RESUME_COPY_WINDOW_MS, noticeSeen: false };
      out(this.meta('fork-copy', { type: 'session_meta', payloadType: null }, timestamp, loc));
      return;
    }
    out(this.meta('session_meta', payload, timestamp, loc));
  }

  /** True while the line belongs to the parent's copied history at the start of a forked child. */
  private stillForkCopy(type: string, payload: Record<string, unknown>, timestamp: IsoTimestamp | undefined): boolean {
    const copy = this.forkCopy;
    if (copy === undefined) return false;
    if (type === 'response_item' && str(payload.type) === 'function_call_output') {
      const output = payload.output;
      if (typeof output === 'string' && output.startsWith(SPAWN_NOTICE)) {
        copy.noticeSeen = true;
        return true;
      }
    }
    const ms = timestampMs(timestamp);
    const late = ms !== undefined && copy.startedMs !== undefined && ms - copy.startedMs > copy.windowMs;
    const ownTurn = type === 'event_msg' && str(payload.type) === 'task_started' && copy.noticeSeen;
    if (ownTurn || late) {
      this.forkCopy = undefined;
      return false;
    }
    return true;
  }

  private noteTotals(type: string, payload: Record<string, unknown>): void {
    if (type !== 'event_msg' || str(payload.type) !== 'token_count' || !isRecord(payload.info)) return;
    const total = tokenUsageOf(payload.info.total_token_usage);
    if (total === undefined) return;
    this.lastTotal = total;
    this.lastTotalKey = totalKey(total);
  }

  private responseItem(
    item: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    out: (r: TranscriptRecord) => void,
  ): void {
    const type = str(item.type) ?? '';
    if (type === 'message') {
      this.message(item, timestamp, loc, out);
      return;
    }
    if (type === 'reasoning') {
      out(this.assistant(reasoningBlocks(item), timestamp, loc));
      return;
    }
    if (CALL_ITEMS.has(type)) {
      this.call(type, item, timestamp, loc, out);
      return;
    }
    if (OUTPUT_ITEMS.has(type)) {
      this.output(type, item, timestamp, loc, out);
      return;
    }
    if (type === 'agent_message') {
      const content = Array.isArray(item.content) ? textOf(item.content) : str(item.content);
      out(this.system('agent_message', content, undefined, item, timestamp, loc));
      return;
    }
    if (type === 'ghost_snapshot' || type === 'compaction' || type === 'compaction_summary') {
      out(this.meta(type, item, timestamp, loc));
      return;
    }
    out({ kind: 'unknown', type: type === '' ? '(no type)' : type, raw: item, ...this.side(timestamp, loc) });
  }

  private message(
    item: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    out: (r: TranscriptRecord) => void,
  ): void {
    const role = str(item.role) ?? 'user';
    const blocks = messageBlocks(item.content);
    if (role === 'assistant') {
      // A partial answer written again after a failed stream is one answer.
      const text = blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('\n');
      if (text !== '' && this.responseTexts.has(text)) {
        out(this.meta('repeated-answer', item, timestamp, loc));
        return;
      }
      if (text !== '') this.responseTexts.add(text);
      out(this.assistant(blocks, timestamp, loc));
      return;
    }
    const text = blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('\n');
    const images = blocks.some((b) => b.kind === 'image');
    const isMeta = role !== 'user' || isInjectedUserText(text);
    const ide = isMeta ? undefined : splitIdePrompt(text);
    if (ide !== undefined) {
      // The IDE extension's context is kept apart (meta); the prompt is what the user typed. The prompt comes first:
      // the index keeps one row per line (the first record's), and the context's row would hide the prompt's.
      const first = blocks.findIndex((b) => b.kind === 'text');
      const rest = blocks.map((b, i) => (i === first ? { kind: 'text' as const, text: ide.request } : b));
      out(this.user(images ? rest : ide.request, false, undefined, timestamp, loc));
      out(this.meta('ide-context', { text: ide.context }, timestamp, loc));
      return;
    }
    out(this.user(images || isMeta ? blocks : text, isMeta, undefined, timestamp, loc));
  }

  private call(
    type: string,
    item: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    out: (r: TranscriptRecord) => void,
  ): void {
    const callId = str(item.call_id) ?? str(item.id) ?? `${type}@${loc.line}`;
    const id = createToolUseId(callId);
    const name = toolNameOf(type, item);
    this.callNames.set(callId, name);
    const input = inputOf(type, item);
    if (SHELL_TOOLS.has(canonicalCodexToolName(name))) this.callInputs.set(callId, input);
    out(this.assistant([{ kind: 'tool-use', id, name, input }], timestamp, loc));
    // Web searches and image generations carry their own outcome: no separate output line.
    if (type === 'web_search_call' || type === 'image_generation_call') {
      const failed = str(item.status) === 'failed';
      const action = isRecord(item.action) ? item.action : {};
      const text = str(action.query) ?? str(item.revised_prompt) ?? str(item.status) ?? '';
      const image =
        type === 'image_generation_call' ? imageOf(`data:image/png;base64,${str(item.result) ?? ''}`) : undefined;
      const content = image !== undefined && str(item.result) ? [{ kind: 'text' as const, text }, image] : text;
      out(
        this.user([{ kind: 'tool-result', toolUseId: id, content, isError: failed }], false, { item }, timestamp, loc),
      );
    }
  }

  private output(
    type: string,
    item: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    out: (r: TranscriptRecord) => void,
  ): void {
    const callId = str(item.call_id) ?? `${type}@${loc.line}`;
    const facts = this.facts.get(callId) ?? {};
    this.facts.delete(callId);
    const raw = type === 'tool_search_output' ? toolSearchText(item) : item.output;
    const parsed = parseCodexOutput(raw);
    const text = resultText(parsed.content);
    const name = this.callNames.get(callId) ?? '';
    const toolUseResult = {
      ...facts,
      style: parsed.style,
      ...(parsed.exitCode !== undefined ? { exitCode: parsed.exitCode } : {}),
      ...(parsed.wallTimeSeconds !== undefined ? { durationSeconds: parsed.wallTimeSeconds } : {}),
    };
    // Codex writes no error flag: a failure is a client message as the whole output, a failed event, or a command
    // that exited non-zero.
    const failed =
      codexFailureOf(text, facts.failed === true, !isCommandOutput(name, parsed.style)) !== undefined ||
      codexShellExitOf(name, this.callInputs.get(callId), num(toolUseResult.exitCode), parsed.style)?.failed === true;
    this.callInputs.delete(callId);
    out(
      this.user(
        [{ kind: 'tool-result', toolUseId: createToolUseId(callId), content: parsed.content, isError: failed }],
        false,
        toolUseResult,
        timestamp,
        loc,
      ),
    );
  }

  private event(
    payload: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    out: (r: TranscriptRecord) => void,
  ): void {
    const type = str(payload.type) ?? '';
    if (type === 'token_count') {
      if (!this.tokenCount(payload, timestamp, loc, out)) out(this.meta(`event_msg:${type}`, payload, timestamp, loc));
      return;
    }
    if (CALL_EVENTS.has(type)) {
      const callId = str(payload.call_id);
      if (callId !== undefined) this.noteCallFacts(callId, type, payload);
    }
    if (type === 'item_completed') this.itemCompleted(payload);
    if (FOLDED_EVENTS.has(type) || CALL_EVENTS.has(type) || type === 'item_completed') {
      // Repeats of response items, or facts folded into a call's output: kept as meta records.
      out(this.meta(`event_msg:${type}`, payload, timestamp, loc));
      return;
    }
    if (type === 'thread_name_updated' && typeof payload.thread_name === 'string') {
      out({ kind: 'title', source: 'custom-title', title: payload.thread_name, ...this.side(timestamp, loc) });
      return;
    }
    if (type === 'turn_aborted') {
      out(
        this.system(
          'turn_aborted',
          `Turn aborted: ${str(payload.reason) ?? 'unknown reason'}`,
          'warning',
          payload,
          timestamp,
          loc,
        ),
      );
      return;
    }
    if (type === 'error' || type === 'stream_error') {
      out(this.system('api_error', str(payload.message) ?? type, 'error', payload, timestamp, loc));
      return;
    }
    if (type === 'task_complete' && payload.error !== undefined && payload.error !== null) {
      const error = isRecord(payload.error)
        ? (str(payload.error.message) ?? JSON.stringify(payload.error))
        : String(payload.error);
      out(this.system('api_error', error, 'error', payload, timestamp, loc));
      return;
    }
    if (type === 'task_started' || type === 'task_complete') {
      // A new turn: a partial answer is only repeated within one response.
      this.responseTexts = new Set();
    }
    out(this.meta(`event_msg:${type}`, payload, timestamp, loc));
  }

  private noteCallFacts(callId: string, type: string, payload: Record<string, unknown>): void {
    const facts: CallFacts = { ...(this.facts.get(callId) ?? {}), [eventKey(type)]: payload };
    const exit = num(payload.exit_code);
    if (exit !== undefined) facts.exitCode = exit;
    // The agent a `spawn_agent` call started: its rollout is a subagent file of this session.
    const spawned = str(payload.new_thread_id);
    if (type === 'collab_agent_spawn_end' && spawned !== undefined) facts.agentId = spawned;
    const duration = durationMsOf(payload.duration);
    if (duration !== undefined) facts.durationMs = duration;
    if (type === 'patch_apply_end' && payload.success === false) facts.failed = true;
    if (type === 'mcp_tool_call_end' && isRecord(payload.result) && 'Err' in payload.result) facts.failed = true;
    this.facts.set(callId, facts);
  }

  /** 0.169 `item_completed`: an MCP call's `status: "failed"` is the only place its failure is written. */
  private itemCompleted(payload: Record<string, unknown>): void {
    const item = isRecord(payload.item) ? payload.item : {};
    const id = str(item.id);
    if (id === undefined || str(item.type) !== 'McpToolCall') return;
    const facts: CallFacts = { ...(this.facts.get(id) ?? {}), item };
    if (str(item.status) === 'failed') facts.failed = true;
    const duration = durationMsOf(item.duration) ?? num(item.duration_ms);
    if (duration !== undefined) facts.durationMs = duration;
    this.facts.set(id, facts);
  }

  /**
   * One API response's usage: `last_token_usage` of a `token_count` whose running total moved (repeats and
   * `info: null` are skipped; a total that drops back after a resume starts a new run), on a record of the response.
   */
  private tokenCount(
    payload: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    out: (r: TranscriptRecord) => void,
  ): boolean {
    const info = isRecord(payload.info) ? payload.info : undefined;
    const total = tokenUsageOf(info?.total_token_usage);
    if (info === undefined || total === undefined) return false;
    const key = totalKey(total);
    if (key === this.lastTotalKey) return false;
    const last = tokenUsageOf(info.last_token_usage) ?? usageDelta(total, this.lastTotal);
    this.lastTotal = total;
    this.lastTotalKey = key;
    this.emitUsage(last, timestamp, loc, out);
    return true;
  }

  /**
   * 0.169+ writes each response's usage as soon as it ends (before its tools run, so it survives a kill mid-tool);
   * the `token_count` that follows repeats it and is skipped by its running total.
   */
  private usageRecord(
    payload: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    out: (r: TranscriptRecord) => void,
  ): void {
    const usage = tokenUsageOf(payload.usage);
    const total = tokenUsageOf(payload.thread_token_usage);
    if (usage === undefined) {
      out(this.meta('token_usage_record', payload, timestamp, loc));
      return;
    }
    if (total !== undefined) {
      this.lastTotal = total;
      this.lastTotalKey = totalKey(total);
    }
    this.emitUsage(usage, timestamp, loc, out);
  }

  /** A response's usage, on a record of that response (see `usageOrder`). */
  private emitUsage(
    usage: CodexTokenUsage,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    out: (r: TranscriptRecord) => void,
  ): void {
    this.usageOrder ??= this.openItems ? 'closes' : 'opens';
    if (this.usageOrder === 'opens' && (this.openItems || this.openUsage)) this.nextResponse();
    const record: AssistantRecord = { ...this.assistant([], timestamp, loc), usage: toUsage(usage) };
    out(record);
    if (this.usageOrder === 'closes') this.nextResponse();
    else this.openUsage = true;
  }

  private nextResponse(): void {
    this.response += 1;
    this.responseTexts = new Set();
    this.openItems = false;
    this.openUsage = false;
  }

  private envelope(timestamp: IsoTimestamp | undefined, loc: SourceLocation, suffix = ''): ChainEnvelope {
    return {
      uuid: createRecordUuid(`${this.sessionId ?? this.file}:${loc.line}${suffix}`),
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
    content: readonly ContentBlock[],
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
  ): AssistantRecord {
    return {
      kind: 'assistant',
      ...this.envelope(timestamp, loc),
      messageId: `${this.sessionId ?? 'codex'}#response-${this.response}`,
      requestId: undefined,
      model: this.model ?? UNKNOWN_MODEL,
      content,
      usage: undefined,
      stopReason: undefined,
      isApiErrorMessage: false,
      isSynthetic: false,
    };
  }

  private user(
    content: string | readonly ContentBlock[],
    isMeta: boolean,
    toolUseResult: unknown,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
  ): UserRecord {
    return {
      kind: 'user',
      ...this.envelope(timestamp, loc, toolUseResult === undefined ? '' : '/result'),
      content,
      isMeta,
      isCompactSummary: false,
      toolUseResult,
      hasToolUseResult: toolUseResult !== undefined,
      sourceToolAssistantUuid: undefined,
    };
  }

  private system(
    subtype: string,
    content: string | undefined,
    level: string | undefined,
    data: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
  ): TranscriptRecord {
    return {
      kind: 'system',
      ...this.envelope(timestamp, loc),
      subtype,
      content,
      level,
      isMeta: false,
      logicalParentUuid: undefined,
      data,
    };
  }

  private meta(
    type: string,
    data: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
  ): TranscriptRecord {
    return { kind: 'meta', type, data, ...this.side(timestamp, loc) };
  }

  private side(timestamp: IsoTimestamp | undefined, loc: SourceLocation) {
    return { sessionId: this.sessionId === undefined ? undefined : createSessionId(this.sessionId), timestamp, loc };
  }

  private issue(loc: SourceLocation, code: ParseIssue['code'], message: string): ParseIssue {
    return { code, file: this.file, line: loc.line, message };
  }
}

/** The model of responses in files that never name one (0.34 writes no `turn_context`). */
export const UNKNOWN_MODEL = 'codex-unknown-model';

function stamp(value: unknown): IsoTimestamp | undefined {
  return typeof value === 'string' && value !== '' ? createIsoTimestamp(value) : undefined;
}

function messageBlocks(content: unknown): ContentBlock[] {
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: ContentBlock[] = [];
  for (const part of content) {
    if (!isRecord(part)) continue;
    const type = str(part.type) ?? 'unknown';
    if (typeof part.text === 'string') blocks.push({ kind: 'text', text: part.text });
    else if (type === 'input_image') blocks.push(imageOf(part.image_url) ?? { kind: 'unknown', type, raw: part });
    else blocks.push({ kind: 'unknown', type, raw: part });
  }
  return blocks;
}

function textOf(content: readonly unknown[]): string {
  return content
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** Reasoning: summary texts, or plain `reasoning_text` of open-weight models; an encrypted blob alone is redacted. */
function reasoningBlocks(item: Record<string, unknown>): ContentBlock[] {
  const summary = Array.isArray(item.summary) ? textOf(item.summary) : '';
  const content = Array.isArray(item.content) ? textOf(item.content) : '';
  const text = [summary, content].filter((t) => t !== '').join('\n\n');
  if (text !== '') return [{ kind: 'thinking', thinking: text }];
  const encrypted = str(item.encrypted_content);
  return [{ kind: 'redacted-thinking', data: encrypted ?? '' }];
}

/**
 * The tool's name: namespaced tools (0.169 MCP) become `mcp__server__tool`; nameless items their type. An app's tool
 * of the `codex_apps` server comes as namespace `mcp__codex_apps__github`, name `_fetch_pr`: Codex's name for it is
 * the two joined as they are, `mcp__codex_apps__github_fetch_pr` (tool `github_fetch_pr`), not `…github___fetch_pr`.
 */
function toolNameOf(type: string, item: Record<string, unknown>): string {
  const name = str(item.name);
  const namespace = str(item.namespace);
  if (name !== undefined && namespace !== undefined) {
    return name.startsWith('_') || namespace.endsWith('_') ? `${namespace}${name}` : `${namespace}__${name}`;
  }
  if (name !== undefined && name !== '') return name;
  if (type === 'local_shell_call') return 'local_shell';
  if (type === 'tool_search_call') return 'tool_search';
  if (type === 'web_search_call') return 'web_search';
  if (type === 'image_generation_call') return 'image_generation';
  return type;
}

/** A call's input: `arguments` parsed from its JSON string (kept as text when it does not parse), or the raw input. */
function inputOf(type: string, item: Record<string, unknown>): unknown {
  if (type === 'custom_tool_call') return { input: str(item.input) ?? '' };
  if (type === 'local_shell_call' || type === 'web_search_call') return isRecord(item.action) ? item.action : {};
  if (type === 'image_generation_call') return { prompt: str(item.revised_prompt) ?? '' };
  const args = item.arguments;
  if (typeof args !== 'string') return isRecord(args) ? args : {};
  try {
    const parsed: unknown = JSON.parse(args);
    return isRecord(parsed) ? capDepth(parsed).value : { arguments: args };
  } catch {
    return { arguments: args, invalidJson: true };
  }
}

function toolSearchText(item: Record<string, unknown>): string {
  const tools = Array.isArray(item.tools) ? item.tools : [];
  const names: string[] = [];
  for (const tool of tools) {
    if (!isRecord(tool)) continue;
    const inner = Array.isArray(tool.tools) ? tool.tools : [];
    if (inner.length === 0 && typeof tool.name === 'string') names.push(tool.name);
    for (const t of inner)
      if (isRecord(t) && typeof t.name === 'string') names.push(`${str(tool.name) ?? ''}__${t.name}`);
  }
  return names.join('\n');
}

function eventKey(type: string): string {
  return type.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** `{secs, nanos}`, a number of seconds, or a "1.2s" string, in milliseconds. */
function durationMsOf(value: unknown): number | undefined {
  if (isRecord(value)) {
    const secs = num(value.secs);
    if (secs === undefined) return undefined;
    return secs * 1000 + (num(value.nanos) ?? 0) / 1e6;
  }
  const n = num(value);
  if (n !== undefined) return n * 1000;
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
