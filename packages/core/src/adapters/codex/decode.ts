import { isRecord, num, str } from '../../internal/guards.js';
import { parseObjectLines } from '../../internal/json-line.js';
import { resultText } from '../../model/content.js';
import { createToolUseId, type IsoTimestamp } from '../../model/ids.js';
import type { SourceLocation } from '../../model/issue.js';
import type { TranscriptRecord } from '../../model/record.js';
import {
  CALL_EVENTS,
  CALL_ITEMS,
  type CallFacts,
  completedItemFacts,
  FOLDED_EVENTS,
  inputOf,
  META_LINES,
  messageBlocks,
  OUTPUT_ITEMS,
  ownOutcome,
  reasoningBlocks,
  stamp,
  textOf,
  toolNameOf,
  toolSearchText,
  withEventFacts,
} from './decode-items.js';
import { type CodexRecordEvent, isReconnect } from './decode-session.js';
import { CodexResponses } from './decode-usage.js';
import { codexExitCodeOf, codexFailureOf, codexShellExitOf, isCommandOutput } from './errors.js';
import { eventNote, SILENT_EVENTS } from './event-notes.js';
import { EventWords } from './event-words.js';
import { environmentCwd, isInjectedUserText, splitIdePrompt } from './injected.js';
import { contextText, parseCodexOutput } from './output.js';
import { canonicalCodexToolName, legacyMcpName, SHELL_TOOLS } from './tool-names.js';

/**
 * Decodes the lines of one Codex rollout file, in order, into the shared records. Stateful (the model comes from
 * `turn_context`, usage from running totals, a response's items are grouped until its `token_count`), so a file is
 * always read from its first line. Never throws on bad data.
 */
export class CodexDecoder extends CodexResponses {
  private readonly facts = new Map<string, CallFacts>();
  /** Tool names by call id, for reading their outputs. */
  private readonly callNames = new Map<string, string>();
  /** Shell calls' inputs by call id, until their output: what an exit code means depends on the command. */
  private readonly callInputs = new Map<string, unknown>();
  /** A legacy rollout (a bare header, no `session_meta`): its MCP tools are named `server__tool`. */
  private legacy = false;
  /** The agent's words written as events, until a response item repeats them or the turn ends. */
  private readonly words = new EventWords();
  /** Between `entered_review_mode` and `exited_review_mode`: whether the review's request was seen. */
  private review: { prompted: boolean } | undefined;

  /** Decode one line; records and issues go to `emit`. */
  decodeLine(text: string, loc: SourceLocation, emit: (event: CodexRecordEvent) => void): void {
    this.lines += 1;
    const lines = parseObjectLines(text, (code, message) =>
      emit({ kind: 'issue', issue: this.issue(loc, code, message) }),
    );
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
    this.eachPart(lines, (line) => this.decodeObject(line, loc, out));
  }

  private decodeObject(line: Record<string, unknown>, loc: SourceLocation, out: (r: TranscriptRecord) => void): void {
    const timestamp = stamp(line.timestamp);
    if (!('payload' in line)) {
      this.decodeLegacy(line, loc, out);
      return;
    }
    const type = str(line.type) ?? '';
    // a payload that is no object (a string, null): nothing of it can be read, so the line is kept whole, by its type
    if (!isRecord(line.payload)) return void out(this.unknown(type, line, timestamp, loc));
    const payload = line.payload;
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
        // The only place the model is named: a session whose only request failed has no usage to name it.
        out({ ...this.meta('turn_context', payload, timestamp, loc), model: str(payload.model) });
        return;
      case 'response_item':
        if (isRecord(line.metadata) && line.metadata.compaction_output === true) {
          this.compactionOutput(payload, timestamp, loc, out);
          return;
        }
        this.responseItem(payload, timestamp, loc, out);
        return;
      case 'event_msg':
        this.event(payload, timestamp, loc, out);
        return;
      case 'compacted':
        this.words.compacted();
        out(this.compactedNote(payload, timestamp, loc));
        return;
      case 'token_usage_record':
        this.usageRecord(payload, timestamp, loc, out);
        return;
      default:
        if (META_LINES.has(type)) out(this.meta(type, payload, timestamp, loc));
        else out(this.unknown(type, line, timestamp, loc));
    }
  }

  /** Pre-`session_meta` files (Aug 2025): a bare header, then bare items without timestamps. */
  private decodeLegacy(line: Record<string, unknown>, loc: SourceLocation, out: (r: TranscriptRecord) => void): void {
    const type = str(line.type);
    if (this.lines === 1 && type === undefined && typeof line.id === 'string') {
      this.legacy = true;
      this.sessionMeta(line, stamp(line.timestamp), loc, out);
      return;
    }
    if (type === undefined && line.record_type !== undefined) {
      // The client saved its state after each request to the model (a pair of these lines after each response and
      // its tools' outputs): the open response ends there, as the next request is another response.
      if (line.record_type === 'state') this.endResponse();
      out(this.meta(`record_type:${String(line.record_type)}`, line, undefined, loc));
      return;
    }
    // Its header names no folder: the first prompt's <environment_context> does (from here on, as later files' meta).
    this.cwd ??= environmentCwd(line);
    this.responseItem(line, undefined, loc, out);
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
      const blocks = reasoningBlocks(item);
      const repeats = blocks.map((b) => b.kind === 'thinking' && this.words.repeated('thinking', b.thinking));
      // reasoning its turn's abort gave already (as its events)
      if (repeats.length > 0 && repeats.every(Boolean)) out(this.meta('repeated-answer', item, timestamp, loc));
      else out(this.assistant(blocks, timestamp, loc));
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
    out(this.unknown(type, item, timestamp, loc));
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
      if ((this.words.repeated('text', text) || this.responseTexts.has(text)) && text !== '') {
        out(this.meta('repeated-answer', item, timestamp, loc));
        return;
      }
      if (text !== '') this.responseTexts.add(text);
      out(this.assistant(blocks, timestamp, loc));
      return;
    }
    const text = blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('\n');
    const images = blocks.some((b) => b.kind === 'image');
    const plain = blocks.every((b) => b.kind === 'text'); // else the blocks are kept: images, parts kept raw
    // the image a view_image call sent the model as a message of its own (before 0.169): no prompt, no new turn
    const toolImage = text === '' && images ? this.toolImageAt(loc) : undefined;
    if (toolImage !== undefined) {
      out({ ...this.user(blocks, false, undefined, timestamp, loc), sourceToolAssistantUuid: toolImage });
      return;
    }
    const isMeta = role !== 'user' || isInjectedUserText(text);
    // Codex stores no response id: without this, a file with no token events (legacy) or a turn without one (a
    // review's answer) would be one response with the next turn's items, shown before the prompts between them.
    if (!isMeta) this.endTurn(out);
    if (!isMeta) this.endResponse();
    if (!isMeta && this.review !== undefined) this.review.prompted = true;
    const ide = isMeta ? undefined : splitIdePrompt(text);
    if (ide !== undefined) {
      // The IDE extension's context is kept apart (meta); the prompt is what the user typed. The prompt comes first:
      // the index keeps one row per line (the first record's), and the context's row would hide the prompt's.
      const first = blocks.findIndex((b) => b.kind === 'text');
      const rest = blocks.map((b, i) => (i === first ? { kind: 'text' as const, text: ide.request } : b));
      out(this.user(plain ? ide.request : rest, false, undefined, timestamp, loc));
      out(this.meta('ide-context', { text: ide.context }, timestamp, loc));
      return;
    }
    out(this.user(!plain || isMeta ? blocks : text, isMeta, undefined, timestamp, loc));
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
    const name = this.legacy ? legacyMcpName(toolNameOf(type, item)) : toolNameOf(type, item);
    this.callNames.set(callId, name);
    const input = inputOf(type, item);
    if (SHELL_TOOLS.has(canonicalCodexToolName(name)) || canonicalCodexToolName(name) === 'exec')
      this.callInputs.set(callId, input);
    const record = this.assistant([{ kind: 'tool-use', id, name, input }], timestamp, loc);
    if (canonicalCodexToolName(name) === 'view_image') this.imageCalls.set(callId, record.uuid);
    out(record);
    // Web searches and image generations carry their own outcome: no separate output line.
    const own = ownOutcome(type, item);
    if (own !== undefined) {
      const result = { kind: 'tool-result' as const, toolUseId: id, content: own.content, isError: own.failed };
      out(this.user([result], false, { item }, timestamp, loc));
    }
  }

  private output(
    type: string,
    item: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    out: (r: TranscriptRecord) => void,
  ): void {
    if (str(item.call_id) === undefined && type === 'function_call_output') {
      out(this.system('context', contextText(item), undefined, item, timestamp, loc));
      return;
    }
    const callId = str(item.call_id) ?? `${type}@${loc.line}`;
    const facts: Record<string, unknown> = { ...this.facts.get(callId), ...this.afterRunFacts() };
    this.imageMayFollow(callId, loc);
    const raw = type === 'tool_search_output' ? toolSearchText(item) : item.output;
    const parsed = parseCodexOutput(raw);
    const text = resultText(parsed.content);
    const name = this.callNames.get(callId) ?? '';
    const exitCode = codexExitCodeOf(name, parsed);
    const toolUseResult = {
      ...facts,
      style: parsed.style,
      ...(exitCode !== undefined ? { exitCode } : {}),
      ...(parsed.runningSessionId !== undefined ? { runningSessionId: parsed.runningSessionId } : {}),
      ...(parsed.wallTimeSeconds !== undefined ? { durationSeconds: parsed.wallTimeSeconds } : {}),
    };
    this.facts.delete(callId);
    // No error flag: a failure is a client message as the whole output, a failed event, or a non-zero exit.
    const failed =
      codexFailureOf(name, text, facts.failed === true, !isCommandOutput(name, parsed.style)) !== undefined ||
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
    if (type === 'mcp_tool_call_end' && this.scriptCall(payload, timestamp, loc, out, this.callNames)) return;
    if (CALL_EVENTS.has(type)) {
      const callId = str(payload.call_id);
      if (callId !== undefined) this.facts.set(callId, withEventFacts(this.facts.get(callId), type, payload));
    }
    if (type === 'item_completed') {
      const completed = completedItemFacts(payload, (id) => this.facts.get(id));
      if (completed !== undefined) this.facts.set(completed.id, completed.facts);
    }
    if (type === 'agent_message' || type === 'agent_reasoning') {
      // as the record of the response they came in, in their own place (the event's line is kept raw)
      this.words.note(payload, (blocks) => ({
        ...this.assistant(blocks, timestamp, loc),
        ...this.envelope(timestamp, loc, ':event-words'),
      }));
    }
    // (not at `turn_context`: 0.50 writes one before each request, a failed stream's retry too)
    if (type === 'task_complete') this.endTurn(out);
    if (type === 'entered_review_mode') this.review = { prompted: false };
    if (type === 'exited_review_mode') this.review = undefined;
    if (type === 'user_message' && this.reviewRequest(payload, timestamp, loc, out)) return;
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
      for (const record of this.words.aborted()) out(record);
      const reason = `Turn aborted: ${str(payload.reason) ?? 'unknown reason'}`;
      out(this.system('turn_aborted', reason, 'warning', payload, timestamp, loc));
      return;
    }
    if (type === 'error' || type === 'stream_error') {
      // a stream error is retried ("Reconnecting... 1/5"); an `error` ends the turn, unless it says it reconnects
      const message = str(payload.message) ?? type;
      out(
        this.system('api_error', message, 'error', payload, timestamp, loc, type !== 'error' || isReconnect(message)),
      );
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
    const note = eventNote(type, payload);
    if (note !== undefined) out(this.system(type, note.text, note.level, payload, timestamp, loc));
    else if (SILENT_EVENTS.has(type)) out(this.meta(`event_msg:${type}`, payload, timestamp, loc));
    else out(this.unknownEvent(type, payload, timestamp, loc));
  }

  /** The turn ended: the agent's words no response item repeated are its own records (`EventWords`). */
  private endTurn(out: (r: TranscriptRecord) => void): void {
    for (const record of this.words.unrepeated()) out(record);
  }

  /**
   * A `/review` turn (0.144) writes its request only as `user_message` events (twice), no `response_item`, then the
   * review's output as an injected `<user_action>` message: the first request of the review is its prompt.
   */
  private reviewRequest(
    payload: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    out: (r: TranscriptRecord) => void,
  ): boolean {
    const text = str(payload.message) ?? '';
    if (this.review === undefined || this.review.prompted || text.trim() === '' || isInjectedUserText(text)) {
      return false;
    }
    this.review.prompted = true;
    this.endResponse();
    out(this.user(text, false, undefined, timestamp, loc));
    return true;
  }
}
