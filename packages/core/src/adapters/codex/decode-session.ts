import { isRecord, str } from '../../internal/guards.js';
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
import type { AssistantRecord, ChainEnvelope, MetaRecord, TranscriptRecord, UserRecord } from '../../model/record.js';
import { unknownModelOf } from '../../model/unknown-model.js';
import { FORK_COPY_WINDOW_MS, RESUME_COPY_WINDOW_MS, SPAWN_NOTICE } from './decode-items.js';
import { CALL_WRITTEN_AFTER_RUN } from './durations.js';
import { codexFailureOf } from './errors.js';
import { scriptCallOf } from './script-calls.js';

/** What the decoder gives for each line: a record (with the bytes of its line), or an issue. */
export type CodexRecordEvent =
  | { readonly kind: 'record'; readonly record: TranscriptRecord; readonly byteLength: number }
  | { readonly kind: 'issue'; readonly issue: ParseIssue };
/** An error Codex writes while it reconnects ("Reconnecting... 1/5", "Re-connecting... 2/3"): it retries. */
export const isReconnect = (message: string): boolean => /^re-?connecting\b/i.test(message.trim());

/** The model of responses in files that never name one (0.34 writes no `turn_context`). */
export const UNKNOWN_MODEL = unknownModelOf('codex');

/**
 * The session a Codex rollout file belongs to, as the decoder learns it (`session_meta`, `turn_context`), the copy of
 * another session's history a forked or resumed file begins with, and the shared records built on that state.
 */
export abstract class CodexSession {
  protected sessionId: string | undefined;
  protected cwd: string | undefined;
  protected version: string | undefined;
  protected gitBranch: string | undefined;
  protected model: string | undefined;
  protected response = 0;
  protected previousUuid: RecordUuid | null = null;
  /** A forked child's copy of its parent's history is being skipped (until the child's own first turn). */
  protected forkCopy:
    | { readonly startedMs: number | undefined; readonly windowMs: number; noticeSeen: boolean }
    | undefined;
  protected lines = 0;
  /** view_image calls' records by call id, until their output (its image may come as the next line's message). */
  protected readonly imageCalls = new Map<string, RecordUuid>();
  /** The view_image call whose image the line `line` may hold (a user message of the image alone). */
  private toolImage: { readonly line: number; readonly uuid: RecordUuid } | undefined;

  /**
   * What an output's facts say of the session's client: it writes a call's line with its output's, after the tool
   * ran (0.63 and earlier, `session_meta`'s `cli_version`), so the two lines' times say nothing of the run
   * (`codexDurations`).
   */
  protected afterRunFacts(): typeof CALL_WRITTEN_AFTER_RUN | Record<string, never> {
    const [major, minor] = (this.version ?? '').split('.').map((n) => Number.parseInt(n, 10));
    return major === 0 && minor !== undefined && minor <= 63 ? CALL_WRITTEN_AFTER_RUN : {};
  }

  constructor(
    protected readonly file: string,
    fileSessionId: string | undefined,
  ) {
    this.sessionId = fileSessionId;
  }

  protected sessionMeta(
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

  /** The output at `loc` answers `callId`: a view_image call's image may follow on the next line. */
  protected imageMayFollow(callId: string, loc: SourceLocation): void {
    const uuid = this.imageCalls.get(callId);
    this.imageCalls.delete(callId);
    if (uuid !== undefined) this.toolImage = { line: loc.line + 1, uuid };
  }

  /** The record of the view_image call whose image a message at `loc` is, when the line before answered it. */
  protected toolImageAt(loc: SourceLocation): RecordUuid | undefined {
    return this.toolImage?.line === loc.line ? this.toolImage.uuid : undefined;
  }

  /** True while the line belongs to the parent's copied history at the start of a forked child. */
  protected stillForkCopy(
    type: string,
    payload: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
  ): boolean {
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

  /** Which of the objects glued on the line being decoded this is (`eachPart`): its records' uuids tell them apart. */
  private part = 0;

  /** Decode each object of one line (several when written back to back: `parseObjectLines`), in order. */
  protected eachPart(objects: readonly Record<string, unknown>[], decode: (object: Record<string, unknown>) => void) {
    objects.forEach((object, k) => {
      this.part = k;
      decode(object);
    });
    this.part = 0;
  }

  protected envelope(timestamp: IsoTimestamp | undefined, loc: SourceLocation, suffix = ''): ChainEnvelope {
    const part = this.part > 0 ? `+${this.part}` : '';
    return {
      uuid: createRecordUuid(`${this.sessionId ?? this.file}:${loc.line}${part}${suffix}`),
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

  protected assistant(
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

  protected user(
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

  /** A system note; `retried`: an API error the client retries (`isReconnect`), not a failed request. */
  protected system(
    subtype: string,
    content: string | undefined,
    level: string | undefined,
    data: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    retried = false,
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
      ...(retried ? { retried: true as const } : {}),
    };
  }

  /**
   * An MCP call an `exec` script made (`script-calls.ts`): its call, started its reported run before the event's
   * time, and its result, both from the one event that says them. False for any other event.
   */
  protected scriptCall(
    payload: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    out: (r: TranscriptRecord) => void,
    /** The ids call items named: their end events are their facts. */
    named: ReadonlyMap<string, unknown>,
  ): boolean {
    const call = scriptCallOf(payload);
    if (call === undefined || named.has(call.id)) return false;
    const id = createToolUseId(call.id);
    const endMs = timestampMs(timestamp);
    const started =
      endMs === undefined || call.durationMs === undefined
        ? timestamp
        : createIsoTimestamp(new Date(endMs - call.durationMs).toISOString());
    out(this.assistant([{ kind: 'tool-use', id, name: call.name, input: call.input }], started, loc));
    const isError = codexFailureOf(call.name, resultText(call.content), call.failed, true) !== undefined;
    out(
      this.user(
        [{ kind: 'tool-result', toolUseId: id, content: call.content, isError }],
        false,
        call.facts,
        timestamp,
        loc,
      ),
    );
    return true;
  }

  protected meta(
    type: string,
    data: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
  ): MetaRecord {
    return { kind: 'meta', type, data, ...this.side(timestamp, loc) };
  }

  /** An event this reader does not know: kept raw as an unknown record (shown and counted), its line's fields. */
  protected unknownEvent(
    type: string,
    payload: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
  ): TranscriptRecord {
    const raw = { timestamp, type: 'event_msg', payload };
    return { kind: 'unknown', type: `event_msg:${type}`, raw, ...this.side(timestamp, loc) };
  }

  /** A line or item of a type this reader does not know (`''`: none), kept whole as `raw`. */
  protected unknown(type: string, raw: unknown, timestamp: IsoTimestamp | undefined, loc: SourceLocation) {
    return { kind: 'unknown' as const, type: type === '' ? '(no type)' : type, raw, ...this.side(timestamp, loc) };
  }

  protected side(timestamp: IsoTimestamp | undefined, loc: SourceLocation) {
    return { sessionId: this.sessionId === undefined ? undefined : createSessionId(this.sessionId), timestamp, loc };
  }

  protected issue(loc: SourceLocation, code: ParseIssue['code'], message: string): ParseIssue {
    return { code, file: this.file, line: loc.line, message };
  }
}
