/**
 * Where a session's errors and text matches are, for the dashboard's error navigation and find-in-session: each
 * hit is an event index of the main timeline plus the Agent calls to expand to reach it (as `locate` gives).
 */

import { findInThreads } from '@agentdash/api';
import { isFailedRequestEvent } from '@agentdash/core';
import type { Session, Subagent, TimelineEvent, ToolCall } from '@agentdash/core/model';
import { noteFields, plainText } from '@agentdash/core/present';
import type { FindHit, SessionErrorHit } from './api-types.js';
import { noteTextOf } from './event-dto.js';

/** What of a loaded session (`SessionView`) the lookups here read. */
export interface SearchableSession {
  readonly session: Session;
  readonly subagentsByKey: ReadonlyMap<string, Subagent>;
  thread(agent: string | undefined, all: boolean): readonly TimelineEvent[] | undefined;
  locate(callId: string): { index: number; expand: string[] } | undefined;
}

/**
 * Every errored call of the session and every request to the model that failed (subagents' included), in timeline
 * order, with where each shows.
 */
export function sessionErrors(view: SearchableSession): SessionErrorHit[] {
  return sortedHits([...errorHitsOf(view.session.calls, (id) => view.locate(id)), ...failedRequestHits(view)]);
}

/**
 * The events that show a request that failed (core's `isFailedRequestEvent`: an API error that ended its turn), in
 * the main timeline and in the subagents its calls started (placed at the call, as a find places its hits).
 */
function failedRequestHits(view: SearchableSession): SessionErrorHit[] {
  const hits: SessionErrorHit[] = [];
  const scan = (events: readonly TimelineEvent[], base: { index: number; expand: readonly string[] } | undefined) => {
    events.forEach((event, i) => {
      const index = base?.index ?? i;
      const expand = base?.expand ?? [];
      if (isFailedRequestEvent(event)) hits.push(failedRequestHit(event, index, expand));
      if (event.kind !== 'assistant') return;
      for (const item of event.items) {
        if (item.kind !== 'tool-call' || item.subagentKey === undefined || expand.length >= 32) continue;
        const sub = view.thread(item.subagentKey, false);
        if (sub) scan(sub, { index, expand: [...expand, item.id] });
      }
    });
  };
  scan(view.thread(undefined, false) ?? [], undefined);
  return hits;
}

/** The error hit of an event showing a failed request, placed at `index` with the Agent calls to `expand`. */
export function failedRequestHit(event: TimelineEvent, index: number, expand: readonly string[]): SessionErrorHit {
  const timestamp =
    event.kind === 'assistant' ? event.timestamp : 'record' in event ? event.record.timestamp : undefined;
  return {
    callId: null,
    index,
    expand: [...expand],
    tool: null,
    severity: 'error',
    category: null,
    timestamp: timestamp ?? null,
  };
}

/** Hits as they show: by event, outer ones first, then by time. */
export const sortedHits = (hits: SessionErrorHit[]): SessionErrorHit[] =>
  hits.sort(
    (a, b) =>
      a.index - b.index || a.expand.length - b.expand.length || (a.timestamp ?? '').localeCompare(b.timestamp ?? ''),
  );

/** What of a call its error hit shows. */
export type ErrorFacts = Pick<ToolCall, 'id' | 'status' | 'canonicalName' | 'timestamp'> & {
  readonly result?:
    | {
        readonly error?:
          | Pick<NonNullable<NonNullable<ToolCall['result']>['error']>, 'severity' | 'category'>
          | undefined;
      }
    | undefined;
};

/** The errored ones of `calls` (the session's, in its order) that show somewhere, sorted as they show. */
export function errorHitsOf(
  calls: Iterable<ErrorFacts>,
  locate: (callId: string) => { index: number; expand: string[] } | undefined,
): SessionErrorHit[] {
  const hits: SessionErrorHit[] = [];
  for (const call of calls) {
    if (call.status !== 'error') continue;
    const where = locate(call.id);
    if (!where) continue;
    hits.push({
      callId: call.id,
      index: where.index,
      expand: where.expand,
      tool: call.canonicalName,
      severity: call.result?.error?.severity ?? 'error',
      category: call.result?.error?.category ?? null,
      timestamp: call.timestamp ?? null,
    });
  }
  return sortedHits(hits);
}

/** Matches of `query` in a loaded session, subagents included (see `findInThreads`). */
export function findInSession(view: SearchableSession, query: string): { hits: FindHit[]; total: number } {
  return findInThreads(
    (key) => view.thread(key, false),
    query,
    (event) => {
      // as the timeline shows the note (core's `noteFields`)
      const raw = noteTextOf(event as TimelineEvent);
      return raw === undefined ? undefined : noteFields(raw);
    },
    plainText,
  );
}
