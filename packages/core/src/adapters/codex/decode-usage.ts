import { isRecord, str } from '../../internal/guards.js';
import type { IsoTimestamp } from '../../model/ids.js';
import type { SourceLocation } from '../../model/issue.js';
import type { AssistantRecord, TranscriptRecord } from '../../model/record.js';
import { textOf } from './decode-items.js';
import { CodexSession } from './decode-session.js';
import { type CodexTokenUsage, tokenUsageOf, totalKey, toUsage, usageDelta } from './usage.js';

/** A Codex session's responses: which records make one response, and each response's usage from running totals. */
export abstract class CodexResponses extends CodexSession {
  /**
   * Where a response's usage comes among its items: after them (0.87 on: the usage closes the response) or before
   * them (0.34–0.63 write a response's `token_count` when it ends and its items only after its tools ran: the usage
   * opens the response). Every turn of every file of the corpus and the wild set keeps one order, so the first usage
   * decides it: no item of its turn (since the last prompt) before it means usage first.
   */
  protected usageOrder: 'closes' | 'opens' | undefined;
  /** The open response has items, or (usage first) its usage already. */
  protected openItems = false;
  protected openUsage = false;
  protected responseTexts = new Set<string>();
  protected lastTotal: CodexTokenUsage | undefined;
  protected lastTotalKey: string | undefined;
  /** The summary a compaction response wrote (0.169), until the `compacted` note it belongs to. */
  protected compactionSummary: string | undefined;

  protected noteTotals(type: string, payload: Record<string, unknown>): void {
    if (type !== 'event_msg' || str(payload.type) !== 'token_count' || !isRecord(payload.info)) return;
    const total = tokenUsageOf(payload.info.total_token_usage);
    if (total === undefined) return;
    this.lastTotal = total;
    this.lastTotalKey = totalKey(total);
  }

  /**
   * One API response's usage: `last_token_usage` of a `token_count` whose running total moved (repeats and
   * `info: null` are skipped; a total that drops back after a resume starts a new run), on a record of the response.
   */
  protected tokenCount(
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
  protected usageRecord(
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
  protected emitUsage(
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

  /**
   * 0.169 writes the compaction's summary (the response that replaces the history) as an assistant message marked
   * `metadata.compaction_output`: not the agent talking to the user but the text of the `compacted` note after it.
   * Kept as a meta record of its response, whose usage (its `token_usage_record`) still counts.
   */
  protected compactionOutput(
    item: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
    out: (r: TranscriptRecord) => void,
  ): void {
    const text = Array.isArray(item.content) ? textOf(item.content) : '';
    if (text !== '') this.compactionSummary = text;
    out(this.meta('compaction_output', item, timestamp, loc));
    // An item of the open response: its usage closes it, as an answer's would.
    this.openItems = true;
  }

  /** `compacted`: the note of a compaction, carrying its summary (0.169's summary response, else the client's text). */
  protected compactedNote(
    payload: Record<string, unknown>,
    timestamp: IsoTimestamp | undefined,
    loc: SourceLocation,
  ): TranscriptRecord {
    const summary = this.compactionSummary ?? str(payload.message);
    this.compactionSummary = undefined;
    return this.system('compact_boundary', summary, undefined, payload, timestamp, loc);
  }

  /**
   * The user's prompt ends the open response: the next item starts a new one. Usage stays with its items either way:
   * it closes a response before the prompt (0.87 on) or opens the next one after it (0.34–0.63); in the corpus and
   * the wild set no prompt comes between a response's items and its usage.
   */
  protected endResponse(): void {
    if (this.openItems || this.openUsage) this.nextResponse();
    // A summary whose `compacted` never came (the client stopped between them) is no later compaction's.
    this.compactionSummary = undefined;
  }

  protected nextResponse(): void {
    this.response += 1;
    this.responseTexts = new Set();
    this.openItems = false;
    this.openUsage = false;
  }
}
