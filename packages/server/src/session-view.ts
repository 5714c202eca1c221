import { type HeaderCounts, headerCallOf, headerCountsOf, timelineShows } from '@agentdash/core';
import {
  primaryDurationMs,
  type Session,
  type Subagent,
  type TimelineEvent,
  type ToolCall,
} from '@agentdash/core/model';
import type {
  AssistantItemDto,
  CallDto,
  EventDto,
  EventsPage,
  SessionDetail,
  SessionRow,
  SubagentInfo,
} from './api-types.js';
import { RawJson } from './raw-json.js';

/** Strings longer than this are cut in timeline pages (the per-call endpoint has the full text). */
export const STRING_LIMIT = 12_000;
const ARRAY_LIMIT = 300;
/** Event pages kept as JSON text per loaded session (the last asked; tabs and clients ask the first ones again). */
const PAGES_KEPT = 4;
/** Larger pages are not kept (the API asks at most 500 events at a time). */
const KEPT_PAGE_LIMIT = 500;
/**
 * JSON characters an API page of events holds at most (beyond its first event): the dashboard's first page of a
 * session whose calls return large outputs comes in a fraction of the bytes, the rest as the reader scrolls.
 */
export const PAGE_CHARS = 256 * 1024;

interface Clip {
  truncated: boolean;
}

/**
 * A deep copy with long strings and arrays cut; images (`kind: 'image'`) are kept whole. Keys and kinds are never
 * touched, so the copy has the type of the value (a typed result stays a valid `TypedResult`).
 */
export function clip<T>(value: T, state: Clip, limit = STRING_LIMIT): T {
  return clipValue(value, state, limit) as T;
}

function clipValue(value: unknown, state: Clip, limit: number): unknown {
  if (typeof value === 'string') {
    if (value.length <= limit) return value;
    state.truncated = true;
    return value.slice(0, limit);
  }
  if (Array.isArray(value)) {
    const items = value.length > ARRAY_LIMIT ? value.slice(0, ARRAY_LIMIT) : value;
    if (items !== value) state.truncated = true;
    return items.map((item) => clipValue(item, state, limit));
  }
  if (typeof value === 'object' && value !== null) {
    const rec = value as Record<string, unknown>;
    if (rec.kind === 'image') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rec)) out[k] = clipValue(v, state, limit);
    return out;
  }
  return value;
}

/**
 * At most `ARRAY_LIMIT` content items of one response; a hostile record can hold hundreds of thousands of blocks.
 * The rest are counted in one `omitted` item (shown as an other-block).
 */
function capItems<T>(items: readonly T[]): (T | { readonly kind: 'omitted'; readonly count: number })[] {
  if (items.length <= ARRAY_LIMIT) return [...items];
  return [...items.slice(0, ARRAY_LIMIT), { kind: 'omitted', count: items.length - ARRAY_LIMIT }];
}

/** Which events show in the timeline by default: conversation, plus notes worth seeing. */
function visible(event: TimelineEvent): boolean {
  switch (event.kind) {
    case 'prompt':
    case 'assistant':
      return true;
    case 'hidden':
      return timelineShows({ kind: 'user', hidden: event.reason }) !== undefined;
    case 'system':
      return timelineShows({ kind: 'system', subtype: event.record.subtype }) !== undefined;
    case 'unknown':
      // A record type AgentDash does not know is shown with its raw data, never dropped silently.
      return true;
    case 'attachment':
    case 'progress':
    case 'side':
      return false;
    default:
      return event satisfies never;
  }
}

/** A loaded session with the lookups the routes need. */
export class SessionView {
  readonly session: Session;
  readonly callsById: ReadonlyMap<string, ToolCall>;
  readonly subagentsByKey: ReadonlyMap<string, Subagent>;
  /**
   * The main timeline: the main thread's events; for a session whose main file is missing (only its subagent files
   * are left), the events of its subagents that no call started, one after another, so that it still opens.
   */
  readonly mainEvents: readonly TimelineEvent[];
  private readonly threads = new Map<string, readonly TimelineEvent[]>();

  /** The session as loaded, before redaction (exports redact it themselves, and count what they redact). */
  readonly source: Session;

  constructor(session: Session, source: Session = session) {
    this.session = session;
    this.source = source;
    this.callsById = new Map(session.calls.map((c) => [c.id, c]));
    this.subagentsByKey = new Map(session.subagents.map((s) => [s.key, s]));
    const hasMain = session.files.some((f) => f.role === 'main');
    this.mainEvents = hasMain
      ? session.events
      : session.subagents.filter((s) => s.parentCallId === undefined).flatMap((s) => s.events);
  }

  /** Events of the main thread (agent undefined) or of one subagent; undefined when the key is unknown. */
  thread(agent: string | undefined, all: boolean): readonly TimelineEvent[] | undefined {
    const cacheKey = `${agent ?? ''}\u0000${all}`;
    const cached = this.threads.get(cacheKey);
    if (cached) return cached;
    const source = agent === undefined ? this.mainEvents : this.subagentsByKey.get(agent)?.events;
    if (!source) return undefined;
    const events = all ? source : source.filter(visible);
    this.threads.set(cacheKey, events);
    return events;
  }

  subagentInfo(sub: Subagent): SubagentInfo {
    const counts = this.headerCounts().threads[this.session.subagents.indexOf(sub)];
    return {
      key: sub.key,
      agentId: sub.agentId ?? null,
      parentCallId: sub.parentCallId ?? null,
      linkedBy: sub.linkedBy,
      prompt: sub.prompt ?? null,
      agentType: sub.agentType ?? null,
      startedAt: sub.startedAt ?? null,
      endedAt: sub.endedAt ?? null,
      events: this.thread(sub.key, false)?.length ?? 0,
      toolCalls: counts?.toolCalls ?? 0,
      errors: counts?.errors ?? 0,
      expectedErrors: counts?.expectedErrors ?? 0,
    };
  }

  private counted: HeaderCounts | undefined;

  /** The header's counts (core's `headerCountsOf`, the rules the index's header follows too), computed once. */
  private headerCounts(): HeaderCounts {
    this.counted ??= headerCountsOf({
      calls: this.session.calls.map(headerCallOf),
      main: this.session.files.some((f) => f.role === 'main')
        ? { shownEvents: this.thread(undefined, false)?.length ?? 0 }
        : undefined,
      threads: this.session.subagents.map((sub) => ({
        key: sub.key,
        started: sub.parentCallId !== undefined,
        shownEvents: this.thread(sub.key, false)?.length ?? 0,
        calls: [...callsOf(sub.events)].map(headerCallOf),
      })),
    });
    return this.counted;
  }

  private callThreads: Map<string, string | null> | undefined;

  /** Where a call shows: its event index in the main timeline, and the Agent calls to expand to reach it. */
  locate(callId: string): { index: number; expand: string[] } | undefined {
    if (!this.callThreads) {
      const map = new Map<string, string | null>();
      const scan = (events: readonly TimelineEvent[], key: string | null) => {
        for (const e of events)
          if (e.kind === 'assistant') for (const i of e.items) if (i.kind === 'tool-call') map.set(i.id, key);
      };
      for (const sub of this.session.subagents) scan(sub.events, sub.key);
      scan(this.mainEvents, null);
      this.callThreads = map;
    }
    const expand: string[] = [];
    let current = callId;
    for (let depth = 0; depth < 32; depth++) {
      const key = this.callThreads.get(current);
      if (key === undefined) return undefined;
      if (key === null) {
        const index = this.mainIndexOf().get(current);
        return index === undefined ? undefined : { index, expand: expand.reverse() };
      }
      const parent = this.subagentsByKey.get(key)?.parentCallId;
      if (!parent) return undefined;
      expand.push(parent);
      current = parent;
    }
    return undefined;
  }

  private mainIndex: Map<string, number> | undefined;

  /** Each main-timeline call's event index, built once: an export locates every call of a 50,000-call session. */
  private mainIndexOf(): ReadonlyMap<string, number> {
    if (!this.mainIndex) {
      const map = new Map<string, number>();
      const events = this.thread(undefined, false) ?? [];
      events.forEach((e, index) => {
        if (e.kind !== 'assistant') return;
        for (const i of e.items) if (i.kind === 'tool-call' && !map.has(i.id)) map.set(i.id, index);
      });
      this.mainIndex = map;
    }
    return this.mainIndex;
  }

  private detailParts: Omit<SessionDetail, 'session'> | undefined;

  /** The session's header: the index's row with what the loaded session adds (computed once per load). */
  detail(row: SessionRow): SessionDetail {
    this.detailParts ??= this.computeDetail();
    return { session: row, ...this.detailParts };
  }

  private computeDetail(): Omit<SessionDetail, 'session'> {
    const s = this.session;
    const { totalEvents, toolCounts, shells } = this.headerCounts();
    return {
      gitBranch: s.gitBranch || null,
      totalEvents,
      subagents: s.subagents.map((sub) => this.subagentInfo(sub)),
      usageByModel: s.usageByModel,
      counts: s.counts,
      issues: s.issues.length,
      toolCounts,
      shells,
    };
  }

  private readonly pageTexts = new Map<string, RawJson<EventsPage>>();

  /**
   * `page` as JSON text, cut at about `maxChars` characters of JSON as well as at `limit` events (at least one event
   * whatever its size): a first page of a few huge tool results is not megabytes. The client asks again from
   * `offset + events.length`. The last few pages are kept, so asking one again costs no serialization.
   */
  pageText(
    agent: string | undefined,
    offset: number,
    limit: number,
    all: boolean,
    maxChars: number = PAGE_CHARS,
  ): RawJson<EventsPage> | undefined {
    const key = `${agent ?? ''}\u0000${offset}\u0000${limit}\u0000${all}\u0000${maxChars}`;
    const hit = this.pageTexts.get(key);
    if (hit) return hit;
    const events = this.thread(agent, all);
    if (!events) return undefined;
    const start = Math.max(0, Math.min(offset, events.length));
    const end = Math.min(events.length, start + limit);
    const parts: string[] = [];
    let size = 0;
    for (let i = start; i < end; i++) {
      const json = JSON.stringify(this.eventDto(events[i] as TimelineEvent, i));
      if (parts.length > 0 && size + json.length + 1 > maxChars) break;
      parts.push(json);
      size += json.length + 1;
    }
    const head = JSON.stringify({
      sessionId: this.session.id,
      agent: agent ?? null,
      total: events.length,
      offset: start,
    });
    const text = new RawJson<EventsPage>(`${head.slice(0, -1)},"events":[${parts.join(',')}]}`);
    if (limit <= KEPT_PAGE_LIMIT) {
      this.pageTexts.set(key, text);
      if (this.pageTexts.size > PAGES_KEPT) {
        const oldest = this.pageTexts.keys().next().value;
        if (oldest !== undefined) this.pageTexts.delete(oldest);
      }
    }
    return text;
  }

  page(agent: string | undefined, offset: number, limit: number, all: boolean): EventsPage | undefined {
    const events = this.thread(agent, all);
    if (!events) return undefined;
    const start = Math.max(0, Math.min(offset, events.length));
    const slice = events.slice(start, start + limit);
    return {
      sessionId: this.session.id,
      agent: agent ?? null,
      total: events.length,
      offset: start,
      events: slice.map((e, i) => this.eventDto(e, start + i)),
    };
  }

  callDto(call: ToolCall, full: boolean): CallDto {
    const state: Clip = { truncated: false };
    const limit = full ? Number.POSITIVE_INFINITY : STRING_LIMIT;
    const r = call.result;
    const sub = call.subagentKey ? this.subagentsByKey.get(call.subagentKey) : undefined;
    const dto: CallDto = {
      kind: 'tool-call',
      id: call.id,
      name: call.name,
      canonicalName: call.canonicalName,
      toolKind: call.toolKind ?? null,
      input: full ? call.input : clip(call.input, state, limit),
      typedInput: full ? (call.typedInput ?? {}) : clip(call.typedInput ?? {}, state, limit),
      timestamp: call.timestamp ?? null,
      status: call.status,
      durationMs: primaryDurationMs(call) ?? null,
      durations: call.durations,
      agentId: call.agentId ?? null,
      subagentKey: call.subagentKey ?? null,
      subagent: sub ? this.subagentInfo(sub) : null,
      result: r
        ? {
            isError: r.isError,
            content: full ? r.content : clip(r.content, state, limit),
            toolUseResult: full ? r.toolUseResult : clip(r.toolUseResult, state, limit),
            typed: full ? r.typed : clip(r.typed, state, limit),
            error: r.error
              ? {
                  category: r.error.category,
                  severity: r.error.severity,
                  message: full ? r.error.message : clip(r.error.message, state, limit),
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

  private eventDto(event: TimelineEvent, index: number): EventDto {
    switch (event.kind) {
      case 'prompt':
        return {
          kind: 'prompt',
          index,
          uuid: event.uuid,
          timestamp: event.timestamp ?? null,
          text: event.text,
          images: event.images,
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
                return this.callDto(item, false);
              case 'other-block':
                return { kind: 'other-block', type: item.block.kind, raw: clip(item.block, { truncated: false }) };
              case 'omitted':
                return { kind: 'other-block', type: 'omitted', raw: { omittedBlocks: item.count } };
              default:
                return item satisfies never;
            }
          }),
        };
      case 'hidden':
        return note(index, event.record.timestamp, event.reason, 'hidden', event.reason, null, event.text);
      case 'system':
        return note(
          index,
          event.record.timestamp,
          event.record.subtype,
          'system',
          null,
          event.record.level ?? null,
          event.record.content ?? systemText(event.record.data),
        );
      case 'attachment':
        return note(index, event.record.timestamp, event.record.attachmentType, 'attachment', null, null, '');
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
}

function note(
  index: number,
  timestamp: string | undefined,
  label: string,
  source: Extract<EventDto, { kind: 'note' }>['source'],
  reason: Extract<EventDto, { kind: 'note' }>['reason'],
  level: string | null,
  text: string,
): EventDto {
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

/** A line for a system record without content (API errors with retries, durations…). */
function systemText(data: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  const error = data.error;
  if (typeof error === 'object' && error !== null) {
    const e = error as Record<string, unknown>;
    const text = typeof e.formatted === 'string' ? e.formatted : typeof e.message === 'string' ? e.message : undefined;
    if (text) parts.push(text);
  } else if (typeof error === 'string') parts.push(error);
  if (typeof data.retryAttempt === 'number') {
    parts.push(
      `retry ${data.retryAttempt}${typeof data.maxRetries === 'number' ? ` of ${data.maxRetries}` : ''}` +
        (typeof data.retryInMs === 'number' ? ` in ${Math.round(data.retryInMs)} ms` : ''),
    );
  }
  if (typeof data.durationMs === 'number' && parts.length === 0) parts.push(`${Math.round(data.durationMs)} ms`);
  return parts.join(' · ');
}

function clipText(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}\n… (${text.length - limit} more characters)` : text;
}

/** A thread's calls, in its order. */
function* callsOf(events: readonly TimelineEvent[]): Generator<ToolCall> {
  for (const e of events) if (e.kind === 'assistant') for (const i of e.items) if (i.kind === 'tool-call') yield i;
}
