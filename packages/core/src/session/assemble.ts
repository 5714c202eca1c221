import type { ImageValue } from '../model/content.js';
import { type RecordUuid, timestampMs } from '../model/ids.js';
import type { TranscriptRecord } from '../model/record.js';
import type { AssistantItem, TimelineEvent } from '../model/session.js';
import type { ToolCall } from '../model/tool-call.js';
import { laterUsage } from '../usage/output-floor.js';
import { hiddenReasonOf, userText } from './classify-user.js';

type MutableAssistant = Extract<TimelineEvent, { kind: 'assistant' }> & {
  items: AssistantItem[];
  uuids: RecordUuid[];
};

/**
 * Assemble one thread's records (in file order) into timeline events: one assistant event per API response
 * (block records grouped by `message.id`), tool calls with their results nested, tool-result-only user records
 * folded away, and meta/system user messages kept as `hidden` events.
 */
export function assembleThread(
  records: readonly TranscriptRecord[],
  callsById: ReadonlyMap<string, ToolCall>,
): TimelineEvent[] {
  const assembler = new ThreadAssembler((block, record) => {
    const call = callsById.get(block.id);
    return call && call.loc.file === record.loc.file && call.loc.line === record.loc.line ? call : undefined;
  });
  for (const record of records) assembler.add(record);
  return assembler.events;
}

/** The call a `tool-use` block of a record shows as, or undefined when it shows elsewhere (its first copy). */
export type CallAt = (block: { readonly id: string }, record: TranscriptRecord) => ToolCall | undefined;

/**
 * `assembleThread` a record at a time: `events` grows as records are added (an assistant event already in it
 * still takes the later block records of its response), so a caller can write the events before the last record.
 */
export class ThreadAssembler {
  readonly events: TimelineEvent[] = [];
  private readonly byMessageId = new Map<string, MutableAssistant>();
  constructor(private readonly callAt: CallAt) {}

  /** Forget the events before `count` (written already); their responses take no more records. */
  drop(count: number): void {
    for (const event of this.events.splice(0, count)) {
      if (event.kind === 'assistant') this.byMessageId.delete(event.messageId);
    }
  }

  add(record: TranscriptRecord): void {
    const { events, byMessageId } = this;
    switch (record.kind) {
      case 'assistant': {
        const key = record.messageId ?? record.uuid;
        let event = byMessageId.get(key);
        if (!event) {
          event = {
            kind: 'assistant',
            messageId: key,
            uuids: [],
            parentUuid: record.parentUuid,
            timestamp: record.timestamp,
            model: record.model,
            items: [],
            usage: record.usage,
            stopReason: record.stopReason,
            isApiError: record.isApiErrorMessage,
            isSynthetic: record.isSynthetic,
            ...(record.requestRef !== undefined ? { requestRef: record.requestRef } : {}),
            loc: record.loc,
          };
          byMessageId.set(key, event);
          events.push(event);
        }
        event.uuids.push(record.uuid);
        const at = timestampMs(record.timestamp);
        if (at !== undefined && !(at <= (timestampMs(event.lastTimestamp) ?? Number.NEGATIVE_INFINITY))) {
          (event as { lastTimestamp: typeof record.timestamp }).lastTimestamp = record.timestamp;
        }
        // Later block records carry the final usage and stop reason (FORMAT.md §8): keep the largest.
        if (record.usage) (event as { usage: typeof record.usage }).usage = laterUsage(event.usage, record.usage);
        if (record.stopReason !== undefined) (event as { stopReason: string }).stopReason = record.stopReason;
        for (const block of record.content) {
          switch (block.kind) {
            case 'text':
              event.items.push({ kind: 'text', text: block.text });
              break;
            case 'thinking':
              event.items.push({ kind: 'thinking', thinking: block.thinking, redacted: false });
              break;
            case 'redacted-thinking':
              event.items.push({ kind: 'thinking', thinking: '', redacted: true });
              break;
            case 'tool-use': {
              const call = this.callAt(block, record);
              if (call) event.items.push(call);
              break;
            }
            default:
              event.items.push({ kind: 'other-block', block });
          }
        }
        break;
      }
      case 'user': {
        const hidden = hiddenReasonOf(record);
        if (hidden === 'tool-result-extra') {
          // The results are nested in their calls; keep any extra text (e.g. a system-reminder) reachable.
          const text = userText(record.content);
          // ... and an image beside them (no words, but not nothing)
          const images = typeof record.content !== 'string' && record.content.some((b) => b.kind === 'image');
          if (text.trim() !== '' || images) events.push({ kind: 'hidden', reason: hidden, text, record });
        } else if (hidden !== undefined) {
          events.push({ kind: 'hidden', reason: hidden, text: userText(record.content), record });
        } else {
          const images: ImageValue[] =
            typeof record.content === 'string' ? [] : record.content.filter((b): b is ImageValue => b.kind === 'image');
          // never dropped without a word: a document, a block of a type not known (a record with a result is hidden)
          const others =
            typeof record.content === 'string'
              ? []
              : record.content.filter((b) => b.kind !== 'text' && b.kind !== 'image');
          events.push({
            kind: 'prompt',
            uuid: record.uuid,
            parentUuid: record.parentUuid,
            timestamp: record.timestamp,
            text: userText(record.content),
            images,
            ...(others.length > 0 ? { others } : {}),
            loc: record.loc,
          });
        }
        break;
      }
      case 'system':
        events.push({ kind: 'system', record });
        break;
      case 'attachment':
        events.push({ kind: 'attachment', record });
        break;
      case 'progress':
        events.push({ kind: 'progress', record });
        break;
      case 'unknown':
        events.push({ kind: 'unknown', record });
        break;
      case 'summary':
      case 'title':
      case 'last-prompt':
      case 'queue-operation':
      case 'file-history-snapshot':
      case 'cost-state':
      case 'api-request':
      case 'meta':
        events.push({ kind: 'side', record });
        break;
      default:
        record satisfies never;
    }
  }
}
