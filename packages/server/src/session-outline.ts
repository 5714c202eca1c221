/**
 * What a session's header and its lookups need beyond the events themselves: each subagent's header, where each call
 * shows (`locate`), the errored calls. The rules are written once here for a loaded session (`SessionView`) and for a
 * streamed one (`outlineOfStream`: one read of the threads and one of the calls, keeping a few facts per call, never
 * an event), so the HTML export of a session too big to load writes what the loaded session writes.
 * @module
 */
import {
  type HeaderCall,
  type HeaderCounts,
  headerCallOf,
  headerCountsOf,
  isFailedRequestEvent,
  type SessionHead,
  type SessionStream,
  type SessionTail,
} from '@agentdash/core';
import type { Subagent, TimelineEvent, ToolCall } from '@agentdash/core/model';
import { FileTally, mayTouchFiles } from '@agentdash/core/present';
import type { FilesResponse, SessionDetail, SessionErrorHit, SubagentInfo } from './api-types.js';
import { shownByDefault } from './event-dto.js';
import { type ErrorFacts, errorHitsOf, failedRequestHit, sortedHits } from './session-find.js';
import { type SessionParts, sameParts } from './session-json.js';

/** Where a call shows: its event index in the main timeline, and the Agent calls to expand (outermost first). */
export interface CallPlace {
  index: number;
  expand: string[];
}

/** What `locateCall` looks up. */
export interface CallPlaces {
  /** The thread holding a call: null for the main timeline, a subagent's key, undefined when no event holds it. */
  threadOf(callId: string): string | null | undefined;
  /** A main-timeline call's index among the events shown by default. */
  mainIndexOf(callId: string): number | undefined;
  /** The call that started a subagent. */
  parentOf(key: string): string | undefined;
}

/** Where a call shows (see `CallPlace`), following the Agent calls up to the main timeline. */
export function locateCall(callId: string, places: CallPlaces): CallPlace | undefined {
  const expand: string[] = [];
  let current = callId;
  for (let depth = 0; depth < 32; depth++) {
    const key = places.threadOf(current);
    if (key === undefined) return undefined;
    if (key === null) {
      const index = places.mainIndexOf(current);
      return index === undefined ? undefined : { index, expand: expand.reverse() };
    }
    const parent = places.parentOf(key);
    if (!parent) return undefined;
    expand.push(parent);
    current = parent;
  }
  return undefined;
}

/** A subagent's header: `shown`, its events shown by default; `counts`, its calls and errors. */
export function subagentInfoOf(
  sub: Omit<Subagent, 'events'>,
  shown: number,
  counts: HeaderCounts['threads'][number] | undefined,
): SubagentInfo {
  return {
    key: sub.key,
    agentId: sub.agentId ?? null,
    parentCallId: sub.parentCallId ?? null,
    linkedBy: sub.linkedBy,
    prompt: sub.prompt ?? null,
    agentType: sub.agentType ?? null,
    startedAt: sub.startedAt ?? null,
    endedAt: sub.endedAt ?? null,
    events: shown,
    toolCalls: counts?.toolCalls ?? 0,
    errors: counts?.errors ?? 0,
    expectedErrors: counts?.expectedErrors ?? 0,
  };
}

/**
 * Whether a session's main file is among its files (`SessionDetail.mainFile`); a session without files listed (a
 * team server's at the metadata tier, which has no timeline) is taken to have it. The team server tells its pushed
 * sessions' from their files' roles (`SessionHeaderParts.mainFile`).
 */
export function hasMainFile(files: readonly { readonly role: string }[]): boolean {
  return files.length === 0 || files.some((f) => f.role === 'main');
}

/** The session's header beyond the index's row, from its parts. */
export function detailPartsOf(
  head: Pick<SessionHead, 'gitBranch' | 'files'>,
  tail: Pick<SessionTail, 'usageByModel' | 'counts' | 'issues'>,
  counts: HeaderCounts,
  subagents: readonly SubagentInfo[],
): Omit<SessionDetail, 'session'> {
  return {
    gitBranch: head.gitBranch || null,
    totalEvents: counts.totalEvents,
    mainFile: hasMainFile(head.files),
    subagents: [...subagents],
    usageByModel: tail.usageByModel,
    counts: tail.counts,
    issues: tail.issues.length,
    toolCounts: counts.toolCounts,
    shells: counts.shells,
    // The copies are the index's to tell (the route's header from the index says; session-copies.ts).
    copiedFrom: [],
  };
}

/** A streamed session's header and lookups, its parts as `parts` makes them (see `outlineOfStream`). */
export interface StreamOutline {
  readonly head: SessionHead;
  readonly tail: SessionTail;
  readonly subagents: readonly Omit<Subagent, 'events'>[];
  readonly hasMain: boolean;
  readonly detail: Omit<SessionDetail, 'session'>;
  subagentOf(key: string): SubagentInfo | undefined;
  locate(callId: string): CallPlace | undefined;
  /** The session's call ids, in its order (`Session.calls`). */
  readonly callIds: readonly string[];
  readonly errors: SessionErrorHit[];
  /** What its file tools did to each file (`GET /api/sessions/:id/files`), from its calls as `parts` makes them. */
  readonly files: FilesResponse;
}

const toolCallsOf = (event: TimelineEvent): ToolCall[] =>
  event.kind === 'assistant' ? event.items.filter((i): i is ToolCall => i.kind === 'tool-call') : [];

/**
 * Read a streamed session's threads and calls once each for its header and lookups: what `SessionView` computes
 * from the loaded session, held as a few facts per call. Only the parts' identifiers are redacted here (`parts.ids`):
 * nothing of what is read (kinds, ids, tool names, statuses, times) is text a secret rule matches.
 */
export async function outlineOfStream(stream: SessionStream, parts: SessionParts = sameParts): Promise<StreamOutline> {
  const head = parts.head(stream.head);
  const subagents = stream.subagents.map((sub) => parts.subagent(sub));
  const hasMain = head.files.some((f) => f.role === 'main');
  const threadOfCall = new Map<string, string | null>();
  const mainCalls: string[] = [];
  const mainIndex = new Map<string, number>();
  let mainShown = 0;
  // the failed requests' events (core's `isFailedRequestEvent`): of the main timeline, placed there; of a subagent a
  // call started, placed at that call (as `sessionErrors` places them in a loaded session)
  const requests: SessionErrorHit[] = [];
  const inSubagent: { readonly event: TimelineEvent; readonly parent: string }[] = [];
  const inMain = (event: TimelineEvent) => {
    for (const call of toolCallsOf(event)) mainCalls.push(call.id);
    if (!shownByDefault(event)) return;
    if (isFailedRequestEvent(event)) requests.push(failedRequestHit(event, mainShown, []));
    for (const call of toolCallsOf(event)) if (!mainIndex.has(call.id)) mainIndex.set(call.id, mainShown);
    mainShown++;
  };
  const shownOf = new Map<string, number>();
  const threadCalls: HeaderCall[][] = [];
  for (const [i, sub] of subagents.entries()) {
    const calls: HeaderCall[] = [];
    let shown = 0;
    // Without a main file, the main timeline is the subagents no call started, one after another.
    const main = !hasMain && sub.parentCallId === undefined;
    for await (const source of stream.events(stream.subagents[i]?.key)) {
      const event = parts.ids(source);
      if (shownByDefault(event)) shown++;
      if (sub.parentCallId !== undefined && shownByDefault(event) && isFailedRequestEvent(event)) {
        inSubagent.push({ event, parent: sub.parentCallId });
      }
      for (const call of toolCallsOf(event)) {
        calls.push(headerCallOf(call));
        threadOfCall.set(call.id, sub.key);
      }
      if (main) inMain(event);
    }
    threadCalls.push(calls);
    shownOf.set(sub.key, shown);
  }
  if (hasMain) for await (const event of stream.events()) inMain(parts.ids(event));
  for (const id of mainCalls) threadOfCall.set(id, null);
  mainCalls.length = 0;

  const headerCalls: HeaderCall[] = [];
  const callIds: string[] = [];
  const errored: ErrorFacts[] = [];
  // the paths are in the calls' inputs and results: those of file tools are taken as `parts` makes them whole
  const files = new FileTally(head.projectPath);
  for await (const source of stream.calls()) {
    if (mayTouchFiles(source)) files.add(parts.call(source));
    const call = parts.ids(source);
    headerCalls.push(headerCallOf(call));
    callIds.push(call.id);
    if (call.status !== 'error') continue;
    const error = call.result?.error;
    errored.push({
      id: call.id,
      status: call.status,
      canonicalName: call.canonicalName,
      timestamp: call.timestamp,
      result: call.result
        ? { error: error ? { severity: error.severity, category: error.category } : undefined }
        : undefined,
    });
  }
  const tail = parts.tail(await stream.tail());

  const counts = headerCountsOf({
    calls: headerCalls,
    main: hasMain ? { shownEvents: mainShown } : undefined,
    threads: subagents.map((sub, i) => ({
      key: sub.key,
      started: sub.parentCallId !== undefined,
      shownEvents: shownOf.get(sub.key) ?? 0,
      calls: threadCalls[i] ?? [],
    })),
  });
  const infos = subagents.map((sub, i) => subagentInfoOf(sub, shownOf.get(sub.key) ?? 0, counts.threads[i]));
  const infoByKey = new Map(subagents.map((sub, i) => [sub.key, infos[i] as SubagentInfo]));
  const subByKey = new Map(subagents.map((sub) => [sub.key, sub]));
  const places: CallPlaces = {
    threadOf: (id) => threadOfCall.get(id),
    mainIndexOf: (id) => mainIndex.get(id),
    parentOf: (key) => subByKey.get(key)?.parentCallId,
  };
  const locate = (id: string) => locateCall(id, places);
  return {
    head,
    tail,
    subagents,
    hasMain,
    detail: detailPartsOf(head, tail, counts, infos),
    subagentOf: (key) => infoByKey.get(key),
    locate,
    callIds,
    errors: sortedHits([
      ...errorHitsOf(errored, locate),
      ...requests,
      ...inSubagent.flatMap(({ event, parent }) => {
        const at = locate(parent);
        return at === undefined ? [] : [failedRequestHit(event, at.index, [...at.expand, parent])];
      }),
    ]),
    files: { projectPath: head.projectPath ?? null, files: files.files() },
  };
}
