/**
 * Where a session's errors and text matches are, for the dashboard's error navigation and find-in-session: each
 * hit is an event index of the main timeline plus the Agent calls to expand to reach it (as `locate` gives).
 */
import type { Session, Subagent, TimelineEvent, ToolCall } from '@agentdash/core/model';
import type { FindHit, SessionErrorHit } from './api-types.js';
import { findInThreads } from './find-text.js';

/** What of a loaded session (`SessionView`) the lookups here read. */
export interface SearchableSession {
  readonly session: Session;
  readonly subagentsByKey: ReadonlyMap<string, Subagent>;
  thread(agent: string | undefined, all: boolean): readonly TimelineEvent[] | undefined;
  locate(callId: string): { index: number; expand: string[] } | undefined;
}

export interface ErrorCounts {
  readonly errors: number;
  readonly expectedErrors: number;
}

function isExpected(call: ToolCall): boolean {
  return call.result?.error?.severity === 'expected';
}

/** Errors of a subagent's calls, and of the subagents those calls started, however deep. */
export function subagentErrorCounts(
  sub: Subagent,
  byKey: ReadonlyMap<string, Subagent>,
  seen: Set<string> = new Set(),
): ErrorCounts {
  let errors = 0;
  let expectedErrors = 0;
  if (seen.has(sub.key)) return { errors, expectedErrors };
  seen.add(sub.key);
  for (const call of callsOf(sub.events)) {
    if (call.status === 'error') {
      if (isExpected(call)) expectedErrors++;
      else errors++;
    }
    const nested = call.subagentKey ? byKey.get(call.subagentKey) : undefined;
    if (nested) {
      const inner = subagentErrorCounts(nested, byKey, seen);
      errors += inner.errors;
      expectedErrors += inner.expectedErrors;
    }
  }
  return { errors, expectedErrors };
}

function* callsOf(events: readonly TimelineEvent[]): Generator<ToolCall> {
  for (const e of events) if (e.kind === 'assistant') for (const i of e.items) if (i.kind === 'tool-call') yield i;
}

/** Every errored call of the session (subagents included) in timeline order, with where it shows. */
export function sessionErrors(view: SearchableSession): SessionErrorHit[] {
  const hits: SessionErrorHit[] = [];
  for (const call of view.session.calls) {
    if (call.status !== 'error') continue;
    const where = view.locate(call.id);
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
  return hits.sort(
    (a, b) =>
      a.index - b.index || a.expand.length - b.expand.length || (a.timestamp ?? '').localeCompare(b.timestamp ?? ''),
  );
}

/** Matches of `query` in a loaded session, subagents included (see `findInThreads`). */
export function findInSession(view: SearchableSession, query: string): { hits: FindHit[]; total: number } {
  return findInThreads((key) => view.thread(key, false), query);
}
