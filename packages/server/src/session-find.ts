/**
 * Where a session's errors and text matches are, for the dashboard's error navigation and find-in-session: each
 * hit is an event index of the main timeline plus the Agent calls to expand to reach it (as `locate` gives).
 */
import type { Session, Subagent, TimelineEvent, ToolCall } from '@agentdash/core/model';
import type { FindHit, SessionErrorHit } from './api-types.js';

/** What of a loaded session (`SessionView`) the lookups here read. */
export interface SearchableSession {
  readonly session: Session;
  readonly subagentsByKey: ReadonlyMap<string, Subagent>;
  thread(agent: string | undefined, all: boolean): readonly TimelineEvent[] | undefined;
  locate(callId: string): { index: number; expand: string[] } | undefined;
}

/** The most hits one find answers with (the count says how many there are in all). */
export const FIND_LIMIT = 500;

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

/** The searchable text of a call: its input and its result, as JSON text where they are not strings. */
function callText(call: ToolCall): string {
  const input = typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? '');
  const content = call.result?.content;
  const result = typeof content === 'string' ? content : content === undefined ? '' : JSON.stringify(content);
  return `${call.name}\n${input}\n${result}`;
}

function snippetAround(text: string, at: number, length: number): string {
  const start = Math.max(0, at - 40);
  const end = Math.min(text.length, at + length + 60);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ')}${end < text.length ? '…' : ''}`;
}

/**
 * Case-insensitive matches of `query` in the session's prompts, replies, thinking and tool calls (input and
 * output), subagents included, in timeline order: one hit per event or call that contains it.
 */
export function findInSession(view: SearchableSession, query: string): { hits: FindHit[]; total: number } {
  const needle = query.toLowerCase();
  const hits: FindHit[] = [];
  let total = 0;
  if (needle === '') return { hits, total };
  const add = (text: string, where: Omit<FindHit, 'snippet'>) => {
    const at = text.toLowerCase().indexOf(needle);
    if (at < 0) return;
    total++;
    if (hits.length < FIND_LIMIT) hits.push({ ...where, snippet: snippetAround(text, at, needle.length) });
  };
  const scan = (events: readonly TimelineEvent[], base: { index: number; expand: readonly string[] } | undefined) => {
    events.forEach((event, i) => {
      const index = base?.index ?? i;
      const expand = base?.expand ?? [];
      if (event.kind === 'prompt') add(event.text, { index, expand: [...expand], callId: null, part: 'prompt' });
      if (event.kind !== 'assistant') return;
      for (const item of event.items) {
        if (item.kind === 'text') add(item.text, { index, expand: [...expand], callId: null, part: 'text' });
        else if (item.kind === 'thinking')
          add(item.thinking, { index, expand: [...expand], callId: null, part: 'thinking' });
        else if (item.kind === 'tool-call') {
          add(callText(item), { index, expand: [...expand], callId: item.id, part: 'tool' });
          const sub = item.subagentKey ? view.subagentsByKey.get(item.subagentKey) : undefined;
          if (sub && expand.length < 32) {
            scan(view.thread(sub.key, false) ?? [], { index, expand: [...expand, item.id] });
          }
        }
      }
    });
  };
  scan(view.thread(undefined, false) ?? [], undefined);
  return { hits, total };
}
