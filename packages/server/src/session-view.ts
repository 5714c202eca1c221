import { type HeaderCounts, headerCallOf, headerCountsOf } from '@agentdash/core';
import type { Session, Subagent, TimelineEvent, ToolCall } from '@agentdash/core/model';
import type { CallDto, EventDto, EventsPage, SessionDetail, SessionRow, SubagentInfo } from './api-types.js';
import { callDtoOf, eventDtoOf, type SubagentOf, shownByDefault } from './event-dto.js';
import { RawJson } from './raw-json.js';
import { type CallPlace, detailPartsOf, locateCall, subagentInfoOf } from './session-outline.js';

export { clip, STRING_LIMIT } from './event-dto.js';

/** Event pages kept as JSON text per loaded session (the last asked; tabs and clients ask the first ones again). */
const PAGES_KEPT = 4;
/** Larger pages are not kept (the API asks at most 500 events at a time). */
const KEPT_PAGE_LIMIT = 500;
/**
 * JSON characters an API page of events holds at most (beyond its first event): the dashboard's first page of a
 * session whose calls return large outputs comes in a fraction of the bytes, the rest as the reader scrolls.
 */
export const PAGE_CHARS = 256 * 1024;

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
    const events = all ? source : source.filter(shownByDefault);
    this.threads.set(cacheKey, events);
    return events;
  }

  subagentInfo(sub: Subagent): SubagentInfo {
    const counts = this.headerCounts().threads[this.session.subagents.indexOf(sub)];
    return subagentInfoOf(sub, this.thread(sub.key, false)?.length ?? 0, counts);
  }

  private readonly subagentOf: SubagentOf = (key) => {
    const sub = this.subagentsByKey.get(key);
    return sub ? this.subagentInfo(sub) : undefined;
  };

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
  locate(callId: string): CallPlace | undefined {
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
    const threads = this.callThreads;
    return locateCall(callId, {
      threadOf: (id) => threads.get(id),
      mainIndexOf: (id) => this.mainIndexOf().get(id),
      parentOf: (key) => this.subagentsByKey.get(key)?.parentCallId,
    });
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
    const infos = s.subagents.map((sub) => this.subagentInfo(sub));
    return detailPartsOf(s, s, this.headerCounts(), infos);
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

  /** `full`: every text whole (true), cut for the timeline (false), or cut at that many characters. */
  callDto(call: ToolCall, full: boolean | number): CallDto {
    return callDtoOf(call, full, this.subagentOf);
  }

  /** An event as the timeline's pages hold it (`index`: its place among the thread's events shown). */
  eventDto(event: TimelineEvent, index: number): EventDto {
    return eventDtoOf(event, index, this.subagentOf);
  }
}

/** A thread's calls, in its order. */
function* callsOf(events: readonly TimelineEvent[]): Generator<ToolCall> {
  for (const e of events) if (e.kind === 'assistant') for (const i of e.items) if (i.kind === 'tool-call') yield i;
}
