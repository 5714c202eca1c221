import { timestampMs } from '../model/ids.js';
import type { Session, Subagent, TimelineEvent } from '../model/session.js';
import { type CallStatus, primaryDurationMs, type ToolCall } from '../model/tool-call.js';
import { type ThreadCall, type ThreadRecord, threadActivity, waitsForPerson } from './activity.js';
import { type Interval, isIdleWait, type UncoveredTime, uncoveredTime } from './partition.js';

/** One tool call on a true time axis: from the call's record to its result's (or the lane's end while pending). */
export interface WaterfallBar {
  readonly id: string;
  readonly tool: string;
  readonly status: CallStatus;
  /** An error expected in normal work (a declined plan, stopping a shell that had finished): drawn apart. */
  readonly expected?: true;
  readonly startMs: number;
  readonly endMs: number;
  /** No result: the bar runs to the end of its lane. */
  readonly open: boolean;
  /** The subagent lane a Task/Agent call started. */
  readonly subagentKey?: string;
}

/** One thread of a session: the main thread or a subagent. */
export interface WaterfallLane {
  readonly key: string;
  readonly label: string;
  /** The call that started this subagent. */
  readonly parentCallId?: string;
  /**
   * A subagent that worked on after the call that started it had its result (started in the background): its lane
   * runs past that call's bar, as it really ran.
   */
  readonly background?: true;
  readonly startMs: number;
  readonly endMs: number;
  readonly calls: readonly WaterfallBar[];
  /** Waiting on the model. */
  readonly model: readonly Interval[];
  /** Waiting for the person (before prompts, questions, plan approvals and a call's approval before it ran). */
  readonly user: readonly Interval[];
  /** Waits for the person long enough to be idle time (`isIdleWait`), as the time partition counts them. */
  readonly idle: readonly Interval[];
  /**
   * Stretches of a second or more that no record covers (`uncoveredTime`: the client's own work, or nothing written),
   * each with what the time partition counts it as. Shorter ones (a result's record to the next request) are left
   * out: no drawing shows them.
   */
  readonly unrecorded: readonly UncoveredTime[];
}

/** The shortest stretch no record covers that a lane carries. */
const UNRECORDED_MIN_MS = 1000;

export interface Waterfall {
  readonly startMs: number;
  readonly endMs: number;
  readonly lanes: readonly WaterfallLane[];
  /**
   * A fork's or resume's: where its own records start (`waterfallOf`'s `ownFromMs`); what it copied before is not
   * drawn, as its time does not count it.
   */
  readonly ownFromMs?: number;
}

function laneOf(
  key: string,
  label: string,
  events: readonly TimelineEvent[],
  parentCallId?: string,
  ownFromMs?: number,
): WaterfallLane {
  const records: ThreadRecord[] = [];
  const calls: ToolCall[] = [];
  // before a fork's own records, nothing (the index's rule for its time: records and calls after `ownFromMs`)
  const at = (ts: string | undefined) => {
    const ms = timestampMs(ts);
    return ownFromMs !== undefined && ms !== undefined && ms <= ownFromMs ? undefined : ms;
  };
  for (const event of events) {
    switch (event.kind) {
      case 'prompt': {
        const t = at(event.timestamp);
        if (t !== undefined) records.push({ atMs: t, kind: 'prompt' });
        break;
      }
      case 'assistant': {
        // A message the client wrote itself (an API error, "No response requested.") is no model response.
        const block: ThreadRecord = event.isSynthetic
          ? { atMs: 0, kind: 'other' }
          : { atMs: 0, kind: 'response', responseKey: event.messageId, requestKey: event.requestRef };
        for (const stamp of [event.timestamp, event.lastTimestamp]) {
          const t = at(stamp);
          if (t !== undefined) records.push({ ...block, atMs: t });
        }
        for (const item of event.items) {
          if (item.kind !== 'tool-call') continue;
          calls.push(item);
          const c = at(item.timestamp);
          if (c !== undefined) records.push({ ...block, atMs: c });
          const r = at(item.result?.timestamp);
          if (r !== undefined) records.push({ atMs: r, kind: 'other' });
        }
        break;
      }
      case 'hidden': {
        const t = at(event.record.timestamp);
        if (t !== undefined) records.push({ atMs: t, kind: 'other' });
        break;
      }
      case 'system':
      case 'attachment':
      case 'progress': {
        const t = at(event.record.timestamp);
        if (t !== undefined) records.push({ atMs: t, kind: 'other' });
        break;
      }
      case 'side': {
        // Claude Code 2.1.x writes an `api-request` record as each request goes out: a wait on the model starts there.
        const t = at(event.record.timestamp);
        if (event.record.kind === 'api-request' && event.record.type === 'api-request' && t !== undefined) {
          records.push({ atMs: t, kind: 'request', requestKey: event.record.id });
        }
        break;
      }
      case 'unknown':
        break;
      default:
        event satisfies never;
    }
  }
  const threadCalls: ThreadCall[] = [];
  for (const c of calls) {
    const start = at(c.timestamp);
    if (start === undefined) continue;
    threadCalls.push({
      startMs: start,
      endMs: at(c.result?.timestamp),
      waitsForPerson: waitsForPerson(c.toolKind),
      ranMs: primaryDurationMs(c),
      startsSubagent: c.toolKind === 'agent',
    });
  }
  const activity = threadActivity(records, threadCalls);
  const bars: WaterfallBar[] = [];
  for (const c of calls) {
    const start = at(c.timestamp);
    if (start === undefined) continue;
    const end = at(c.result?.timestamp);
    bars.push({
      id: c.id,
      tool: c.canonicalName,
      status: c.status,
      ...(c.status === 'error' && c.result?.error?.severity === 'expected' ? { expected: true as const } : {}),
      startMs: start,
      endMs: end ?? Math.max(activity.endMs, start),
      open: end === undefined,
      ...(c.subagentKey !== undefined ? { subagentKey: c.subagentKey } : {}),
    });
  }
  bars.sort((a, b) => a.startMs - b.startMs);
  // a question or plan put to the person is theirs however long (as the partition counts it), a wait is idle past
  // the threshold
  const waits = [...activity.userWaits, ...(activity.approvals ?? [])];
  // each stretch drawn once (two calls waiting for one approval together, a wait inside a longer one), and as the
  // partition counts it: a wait for the person over the model, idle time over the person's
  const idle = unionOf(waits.filter((w) => isIdleWait(w)));
  const user = without(unionOf([...waits.filter((w) => !isIdleWait(w)), ...activity.personTools]), idle);
  return {
    key,
    label,
    ...(parentCallId !== undefined ? { parentCallId } : {}),
    startMs: activity.startMs,
    endMs: activity.endMs,
    calls: bars,
    model: without(activity.model, [...idle, ...user]),
    user,
    idle,
    unrecorded: uncoveredTime(activity).filter((u) => u.endMs - u.startMs >= UNRECORDED_MIN_MS),
  };
}

/** Intervals merged where they overlap or touch, in time order. */
function unionOf(intervals: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const i of [...intervals].sort((a, b) => a.startMs - b.startMs)) {
    const last = out.at(-1);
    if (last !== undefined && i.startMs <= last.endMs)
      out[out.length - 1] = { ...last, endMs: Math.max(last.endMs, i.endMs) };
    else if (i.endMs > i.startMs) out.push({ startMs: i.startMs, endMs: i.endMs });
  }
  return out;
}

/** The parts of `intervals` outside `cut` (merged), each kept whole when nothing of it is cut. */
function without<T extends Interval>(intervals: readonly T[], cut: readonly Interval[]): T[] {
  const cuts = unionOf(cut);
  if (cuts.length === 0) return [...intervals];
  return intervals.flatMap((i) => {
    let pieces: T[] = [i];
    for (const c of cuts) {
      if (c.endMs <= i.startMs || c.startMs >= i.endMs) continue;
      pieces = pieces.flatMap((p) =>
        c.endMs <= p.startMs || c.startMs >= p.endMs
          ? [p]
          : [
              ...(c.startMs > p.startMs ? [{ ...p, endMs: c.startMs }] : []),
              ...(c.endMs < p.endMs ? [{ ...p, startMs: c.endMs }] : []),
            ],
      );
    }
    return pieces;
  });
}

/**
 * A subagent lane's name: what it was asked to do (the starting Agent/Task call's `description`, else its first
 * prompt on one line), then its type, so that five `general-purpose` lanes read apart even where the lane's column
 * cuts the name; its key when it has neither.
 */
function subagentLabel(sub: Subagent, parent: ToolCall | undefined): string {
  const asked = parent?.typedInput?.description ?? sub.prompt;
  const what = asked?.replace(/\s+/g, ' ').trim().slice(0, 200) || undefined;
  const parts = [what, sub.agentType].filter((p): p is string => p !== undefined && p !== '');
  if (parts.length === 2 && parts[0] === parts[1]) parts.pop();
  return parts.length > 0 ? parts.join(' · ') : sub.key;
}

/**
 * A session on a true time axis: one lane per thread (main, then each subagent by start), its calls as bars from
 * call to result, and the stretches spent waiting on the model or on the person.
 */
export function waterfallOf(session: Session, ownFromMs?: number): Waterfall {
  const lanes = [laneOf('main', 'main', session.events, undefined, ownFromMs)];
  const subagents = [...session.subagents].sort(
    (a, b) => (timestampMs(a.startedAt) ?? 0) - (timestampMs(b.startedAt) ?? 0),
  );
  const callById = new Map<string, ToolCall>(session.calls.map((c) => [c.id, c]));
  for (const sub of subagents) {
    const parent = sub.parentCallId === undefined ? undefined : callById.get(sub.parentCallId);
    // a subagent a copied call started is the earlier session's, as its call
    const started = timestampMs(parent?.timestamp ?? sub.startedAt);
    if (ownFromMs !== undefined && started !== undefined && started <= ownFromMs) continue;
    const lane = laneOf(sub.key, subagentLabel(sub, parent), sub.events, sub.parentCallId);
    const parentEnd = timestampMs(parent?.result?.timestamp);
    lanes.push(parentEnd !== undefined && lane.endMs > parentEnd ? { ...lane, background: true } : lane);
  }
  const timed = lanes.filter((l) => l.endMs > 0);
  const own = ownFromMs === undefined ? {} : { ownFromMs };
  if (timed.length === 0) return { startMs: 0, endMs: 0, lanes: [], ...own };
  return {
    startMs: Math.min(...timed.map((l) => l.startMs)),
    endMs: Math.max(...timed.map((l) => l.endMs)),
    lanes: timed,
    ...own,
  };
}
