/**
 * The dashboard's view of one event or call (`EventDto`, `CallDto`): long strings and lists cut for the timeline,
 * notes for what is not conversation. Written from a loaded session (`SessionView`) and from a streamed one (the
 * HTML export of a session too big to load), so both write the same text.
 * @module
 */

import { ARRAY_LIMIT, type Clip, clip, imagesOnce, STRING_LIMIT } from '@agentdash/api';
import {
  attachmentImages,
  attachmentLabel,
  attachmentShows,
  noteSourceOf,
  systemNoteLabel,
  timelineShows,
} from '@agentdash/core';
import { type ImageValue, primaryDurationMs, type TimelineEvent, type ToolCall } from '@agentdash/core/model';
import type { AssistantItemDto, CallDto, EventDto, SubagentInfo } from './api-types.js';

export { ARRAY_LIMIT, clip, STRING_LIMIT };

/** The header of the subagent a call started (by its key), as the session's header shows it. */
export type SubagentOf = (key: string) => SubagentInfo | undefined;

/**
 * At most `ARRAY_LIMIT` content items of one response; a hostile record can hold hundreds of thousands of blocks.
 * The rest are counted in one `omitted` item (shown as an other-block).
 */
function capItems<T>(items: readonly T[]): (T | { readonly kind: 'omitted'; readonly count: number })[] {
  if (items.length <= ARRAY_LIMIT) return [...items];
  return [...items.slice(0, ARRAY_LIMIT), { kind: 'omitted', count: items.length - ARRAY_LIMIT }];
}

/** Which events show in the timeline by default: conversation, plus notes worth seeing. */
export function shownByDefault(event: TimelineEvent): boolean {
  switch (event.kind) {
    case 'prompt':
    case 'assistant':
      return true;
    case 'hidden':
      return timelineShows({ kind: 'user', hidden: event.reason }) !== undefined;
    case 'system':
      return (
        timelineShows({ kind: 'system', subtype: event.record.subtype, content: event.record.content }) !== undefined
      );
    case 'unknown':
      // A record type AgentDash does not know is shown with its raw data, never dropped silently.
      return true;
    case 'attachment':
      // a queued message, a hook's message: words of the session no other record holds
      return attachmentShows(event.record) !== undefined;
    case 'progress':
    case 'side':
      return false;
    default:
      return event satisfies never;
  }
}

/**
 * A call as the dashboard shows it. `full`: every text whole (true: the per-call endpoint, an export), cut for the
 * timeline (false, `STRING_LIMIT`), or cut at that many characters (the per-call endpoint's `chars`).
 */
export function callDtoOf(call: ToolCall, full: boolean | number, subagentOf: SubagentOf): CallDto {
  const state: Clip = { truncated: false };
  const limit = full === true ? Number.POSITIVE_INFINITY : full === false ? STRING_LIMIT : full;
  const whole = limit === Number.POSITIVE_INFINITY;
  const r = call.result;
  const sub = call.subagentKey ? subagentOf(call.subagentKey) : undefined;
  const dto: CallDto = {
    kind: 'tool-call',
    id: call.id,
    name: call.name,
    canonicalName: call.canonicalName,
    toolKind: call.toolKind ?? null,
    input: whole ? call.input : clip(call.input, state, limit),
    typedInput: whole ? (call.typedInput ?? {}) : clip(call.typedInput ?? {}, state, limit),
    timestamp: call.timestamp ?? null,
    status: call.status,
    ...(call.noResult !== undefined ? { noResult: call.noResult } : {}),
    durationMs: primaryDurationMs(call) ?? null,
    durations: call.durations,
    agentId: call.agentId ?? null,
    subagentKey: call.subagentKey ?? null,
    subagent: sub ?? null,
    ...(call.taskSubject !== undefined ? { taskSubject: call.taskSubject } : {}),
    result: r
      ? {
          isError: r.isError,
          // a page holds each image once, in `images`: not again in the content and the client's data of it
          content: whole ? r.content : clip(imagesOnce(r.content, r.images), state, limit),
          toolUseResult: whole ? r.toolUseResult : clip(imagesOnce(r.toolUseResult, r.images), state, limit),
          typed: whole ? r.typed : clip(imagesOnce(r.typed, r.images), state, limit),
          error: r.error
            ? {
                category: r.error.category,
                severity: r.error.severity,
                message: whole ? r.error.message : clip(r.error.message, state, limit),
                exitCode: r.error.exitCode,
              }
            : null,
          images: r.images,
          timestamp: r.timestamp ?? null,
        }
      : null,
    truncated: false,
  };
  return { ...dto, truncated: state.truncated };
}

export function eventDtoOf(event: TimelineEvent, index: number, subagentOf: SubagentOf): EventDto {
  switch (event.kind) {
    case 'prompt':
      return {
        kind: 'prompt',
        index,
        uuid: event.uuid,
        timestamp: event.timestamp ?? null,
        text: event.text,
        images: event.images,
        ...(event.others
          ? { others: event.others.map((block) => ({ type: block.kind, raw: clip(block, { truncated: false }) })) }
          : {}),
      };
    case 'assistant':
      return {
        kind: 'assistant',
        index,
        messageId: event.messageId,
        timestamp: event.timestamp ?? null,
        model: event.model ?? null,
        usage: event.usage ?? null,
        stopReason: event.stopReason ?? null,
        isApiError: event.isApiError,
        isSynthetic: event.isSynthetic,
        items: capItems(event.items).map((item): AssistantItemDto => {
          switch (item.kind) {
            case 'text':
              return item;
            case 'thinking':
              return item;
            case 'tool-call':
              return callDtoOf(item, false, subagentOf);
            case 'other-block':
              return { kind: 'other-block', type: item.block.kind, raw: clip(item.block, { truncated: false }) };
            case 'omitted':
              return { kind: 'other-block', type: 'omitted', raw: { omittedBlocks: item.count } };
            default:
              return item satisfies never;
          }
        }),
      };
    case 'hidden': {
      const shown = note(
        index,
        event.record.timestamp,
        event.reason,
        'hidden',
        event.reason,
        null,
        noteTextOf(event) ?? '',
      );
      const content = event.record.content;
      const images = typeof content === 'string' ? [] : content.filter((b): b is ImageValue => b.kind === 'image');
      return images.length === 0 ? shown : { ...shown, images };
    }
    case 'system':
      return note(
        index,
        event.record.timestamp,
        systemNoteLabel(event.record),
        'system',
        null,
        event.record.level ?? null,
        noteTextOf(event) ?? '',
      );
    case 'attachment': {
      const shown = note(
        index,
        event.record.timestamp,
        attachmentLabel(event.record),
        'attachment',
        null,
        null,
        noteTextOf(event) ?? '',
      );
      // a queued message's pasted images, as a prompt's are shown
      const images = attachmentImages(event.record);
      return images.length === 0 ? shown : { ...shown, images };
    }
    case 'progress':
      return note(index, event.record.timestamp, event.record.dataType, 'progress', null, null, '');
    case 'side':
      return note(index, event.record.timestamp, event.record.kind, 'side', null, null, '');
    case 'unknown':
      return note(
        index,
        event.record.timestamp,
        event.record.type,
        'unknown',
        null,
        null,
        clipText(JSON.stringify(event.record.raw, null, 2), 4000),
      );
    default:
      return event satisfies never;
  }
}

/** The text of a client note the timeline shows (a hidden user message, a system record, an attachment), as logged. */
export function noteTextOf(event: TimelineEvent): string | undefined {
  return event.kind === 'hidden' || event.kind === 'system' || event.kind === 'attachment'
    ? noteSourceOf(event.record)
    : undefined;
}

function note(
  index: number,
  timestamp: string | undefined,
  label: string,
  source: Extract<EventDto, { kind: 'note' }>['source'],
  reason: Extract<EventDto, { kind: 'note' }>['reason'],
  level: string | null,
  text: string,
): Extract<EventDto, { kind: 'note' }> {
  const cut = text.length > 4000;
  return {
    kind: 'note',
    index,
    timestamp: timestamp ?? null,
    label,
    source,
    reason,
    level,
    text: cut ? text.slice(0, 4000) : text,
    truncated: cut,
  };
}

function clipText(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}\n… (${text.length - limit} more characters)` : text;
}
