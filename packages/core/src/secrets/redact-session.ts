/**
 * Redact a whole session before it leaves the machine: every string of every event, call and subagent, with each
 * redaction reported at its transcript line (`<file>:<line>`), the place a user can look at.
 * @module
 */
import type { Session, TimelineEvent } from '../model/session.js';
import type { ToolCall } from '../model/tool-call.js';
import { redactIdentifiers, redactIdentifiersKnowing } from './redact-identifiers.js';
import { RedactionReport, redactValue } from './scan.js';

function baseName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i < 0 ? path : path.slice(i + 1);
}

function placeOf(value: unknown, fallback: string): string {
  if (typeof value !== 'object' || value === null) return fallback;
  const v = value as {
    loc?: { file?: unknown; line?: unknown };
    record?: { loc?: { file?: unknown; line?: unknown } };
  };
  const loc = v.loc ?? v.record?.loc;
  return loc && typeof loc.file === 'string' && typeof loc.line === 'number'
    ? `${baseName(loc.file)}:${loc.line}`
    : fallback;
}

/**
 * A call redacted as `redactValue` does, its result counted at the result's own line (where the secret is in the
 * transcript), the rest at the call's.
 */
function redactCall<T>(call: T, place: string, report: RedactionReport): T {
  const result = (call as { result?: unknown }).result;
  if (typeof result !== 'object' || result === null) return redactValue(call, place, report);
  const { result: _result, ...rest } = call as T & { result: unknown };
  const out = redactValue(rest, place, report);
  const redacted = redactValue(result, placeOf(result, place), report);
  // Spread the original first: the copy keeps its key order; nothing found, the call itself.
  return out === rest && redacted === result ? call : { ...call, ...out, result: redacted };
}

/**
 * A copy of `session` with every secret replaced by `[REDACTED:<rule>]`; the same object reached twice (a call is in
 * its event and in `calls`) is redacted and counted once.
 */
export function redactSession(source: Session): { readonly session: Session; readonly report: RedactionReport } {
  // Identifiers first: a secret of the project's path is in its folder's name too, spelled so no rule finds it.
  const session = redactIdentifiers(source);
  const report = new RedactionReport();
  const seen = new WeakMap<object, unknown>();
  const once = <T>(value: T, place: string, redact: typeof redactValue = redactValue): T => {
    if (typeof value !== 'object' || value === null) return redact(value, place, report);
    const hit = seen.get(value);
    if (hit !== undefined) return hit as T;
    const out = redact(value, place, report);
    seen.set(value, out);
    return out;
  };
  const events = (list: readonly TimelineEvent[]): TimelineEvent[] =>
    list.map((event) => {
      if (event.kind !== 'assistant') return once(event, placeOf(event, 'session'));
      // Each call of a response is redacted on its own, so `calls` finds the same copies.
      const items = event.items.map((item) =>
        once(item, placeOf(item, placeOf(event, 'session')), item.kind === 'tool-call' ? redactCall : redactValue),
      );
      const { items: _items, ...rest } = event;
      // Spread the original first: the copy keeps its key order (an export equals `show --json` when nothing is found).
      return { ...event, ...once(rest, placeOf(event, 'session')), items };
    });
  const mainEvents = events(session.events);
  const subagents = session.subagents.map((sub) => {
    const { events: subEvents, ...rest } = sub;
    return { ...sub, ...once(rest, sub.file ? baseName(sub.file) : `subagent ${sub.key}`), events: events(subEvents) };
  });
  const calls = session.calls.map((call) => once(call, placeOf(call, 'session'), redactCall));
  const { events: _e, subagents: _s, calls: _c, ...header } = session;
  const redacted: Session = { ...session, ...once(header, 'session header'), events: mainEvents, subagents, calls };
  return { session: redacted, report };
}

/**
 * A copy of a JSON-like value derived from a session (its index row: title, project path) with every secret replaced
 * by `[REDACTED:<rule>]`. Not counted: its texts are the session's own, which `redactSession` counts.
 * @example redactDerived({ title: 'my key is sk-ant-api03-…' }) // { title: 'my key is [REDACTED:anthropic-api-key]' }
 */
export function redactDerived<T>(value: T): T {
  return redactValue(value, 'derived', new RedactionReport());
}

/**
 * `redactSession` a part at a time, for a session written as it is read (`openSessionStream`): each part gets what
 * the whole session's copy holds there, and `report()` counts what `redactSession`'s report counts, in its order (the
 * header's redactions after the events', subagents' and calls'), once every part has been taken. `found` holds the
 * secrets of the session's identifiers (`identifierSecretsOf` over every part).
 */
export class SessionRedactor {
  private readonly counted = new RedactionReport();
  private readonly header = new RedactionReport();
  private readonly inEvents = new Set<string>();
  /** Whether a call must be taken from `calls` too for the count (see `call`). */
  callsAgain = false;
  constructor(private readonly found: ReadonlySet<string>) {}

  private ids<T>(part: T): T {
    return redactIdentifiersKnowing(part, this.found);
  }

  event(source: TimelineEvent): TimelineEvent {
    const event = this.ids(source);
    if (event.kind !== 'assistant') return redactValue(event, placeOf(event, 'session'), this.counted);
    const place = placeOf(event, 'session');
    const items = event.items.map((item, i) => {
      if (item.kind === 'tool-call') {
        this.inEvents.add(item.id);
        // Its identifiers made it another copy than the one in `calls`, which redactSession counts again.
        if (item !== (source as typeof event).items[i]) this.callsAgain = true;
      }
      return (item.kind === 'tool-call' ? redactCall : redactValue)(item, placeOf(item, place), this.counted);
    });
    const { items: _items, ...rest } = event;
    return { ...event, ...redactValue(rest, place, this.counted), items };
  }

  subagent<T extends { readonly file?: string | undefined; readonly key: string }>(source: T): T {
    const sub = this.ids(source);
    return redactValue(sub, sub.file ? baseName(sub.file) : `subagent ${sub.key}`, this.counted);
  }

  /** A call of `calls`: counted only when no event held it (or its identifiers made it another copy). */
  call(source: ToolCall): ToolCall {
    const call = this.ids(source);
    const again = !this.inEvents.has(call.id) || call !== source;
    return redactCall(call, placeOf(call, 'session'), again ? this.counted : new RedactionReport());
  }

  head<T>(part: T): T {
    return redactValue(this.ids(part), 'session header', this.header);
  }

  tail<T>(part: T): T {
    return redactValue(this.ids(part), 'session header', this.header);
  }

  /** What was redacted, once every part was taken. */
  report(): RedactionReport {
    const report = new RedactionReport();
    report.merge(this.counted);
    report.merge(this.header);
    return report;
  }
}
