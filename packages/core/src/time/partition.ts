/** Where a session's time went; the parts sum to `wallMs`. */
export interface SessionTime {
  /** From the thread's first to its last timestamp. */
  readonly wallMs: number;
  /**
   * Waiting on the model: from the request (the client's request record where it writes one, else the record before
   * a response) to the last block of the response.
   */
  readonly modelMs: number;
  /** Tools running (union of call → result intervals; parallel calls count once; subagents sit inside their call). */
  readonly toolMs: number;
  /**
   * Waiting for the person: before each prompt, calls that ask the person (questions, plan approval), and a call's
   * wait for its approval before its tool ran.
   */
  readonly userMs: number;
  /** Waits for the person, and stretches without any activity, longer than the idle threshold. */
  readonly idleMs: number;
}

export interface Interval {
  readonly startMs: number;
  readonly endMs: number;
}

/** What happened on one thread, as intervals (see `threadActivity`). */
export interface ThreadActivity {
  readonly startMs: number;
  readonly endMs: number;
  readonly model: readonly Interval[];
  readonly tools: readonly Interval[];
  /** Calls that wait for the person (a question put to the user, a plan to approve: `personKinds`). */
  readonly personTools: readonly Interval[];
  /** From the last record before a prompt to the prompt. */
  readonly userWaits: readonly Interval[];
  /**
   * Waits for the person inside a call: from the call to the start of its tool's run (an approval), or a whole call
   * that lasted longer than the idle threshold by no figure of its own (see `threadActivity`).
   */
  readonly approvals?: readonly Interval[];
}

/** A wait for the person, or a stretch without activity, longer than this is idle time: 15 minutes. */
export const IDLE_THRESHOLD_MS = 15 * 60_000;

/** Whether a wait for the person (before a prompt, for an approval) is idle time: longer than the threshold. */
export function isIdleWait(wait: Interval, idleThresholdMs: number = IDLE_THRESHOLD_MS): boolean {
  return wait.endMs - wait.startMs > idleThresholdMs;
}

// `away`: an approval longer than the idle threshold, idle time that wins over the call's own records (a Gemini call
// is stamped when it completes, so its response seems to last until then).
const labels = ['person', 'away', 'tool', 'model', 'user', 'idle'] as const;
type Label = (typeof labels)[number];

export const zeroTime: SessionTime = { wallMs: 0, modelMs: 0, toolMs: 0, userMs: 0, idleMs: 0 };

/**
 * A session's time as every surface reports it (the index's summaries, the API's `TimeDto`, the team push):
 * `wallMs` null when its wall time is unknown, never 0 for it (`reportedTime`).
 */
export interface ReportedTime extends Omit<SessionTime, 'wallMs'> {
  readonly wallMs: number | null;
}

/**
 * The one rule for an unknown wall time: a thread whose records give no span (one timestamp for the whole thread, as
 * old Codex rollouts stamp only their header, or none) has none, so its `wallMs` is null, not 0 (the parts are then 0).
 * A team server reads a session an older laptop pushed with 0 for it through this too.
 */
export function reportedTime(t: ReportedTime): ReportedTime {
  return t.wallMs !== null && t.wallMs > 0 ? t : { ...t, wallMs: null };
}

/**
 * Splits a thread's wall time into model, tool, user and idle time. Where intervals overlap, the first of these wins:
 * a call waiting for the person (a question, a plan, an approval; idle when the approval is longer than the idle
 * threshold), a running tool, the model, a wait for the person.
 * Waits longer than `idleThresholdMs` (before a prompt, or for an approval) are idle. Time covered by nothing is the client's own work (hooks and attachments after a tool
 * result or a prompt, a slash command, a compaction), or idle when longer than the threshold. After a tool or a
 * prompt it counts as that (tool or user time), unless the tool's turn went no further: before a wait for the person
 * or the thread's end (a call the person interrupted or refused, then minutes of nothing) it is the person's. After
 * a response it is never model time: a response ends with its
 * last block, so what follows it belongs to what comes next (a tool, a wait for the person) and, when that is another
 * response or nothing, to the person's side of the turn (user time: a `/compact` typed after an answer is the
 * person's, not the model's).
 */
export function partitionTime(activity: ThreadActivity, idleThresholdMs: number = IDLE_THRESHOLD_MS): SessionTime {
  const { startMs, endMs } = activity;
  if (!(endMs > startMs)) return zeroTime;
  const sums = labels.map(() => 0);
  walkTime(activity, idleThresholdMs, (from, to, label) => {
    sums[label] = (sums[label] ?? 0) + (to - from);
  });
  const [person = 0, away = 0, tool = 0, model = 0, user = 0, idle = 0] = sums;
  return {
    wallMs: endMs - startMs,
    modelMs: model,
    toolMs: tool,
    userMs: user + person,
    idleMs: idle + away,
  };
}

/** A stretch of a thread's time no record covers, and what `partitionTime` counts it as. */
export interface UncoveredTime extends Interval {
  readonly countedAs: 'tool' | 'user' | 'idle';
}

/**
 * The stretches of a thread's time that no record covers (the client's own work: hooks after a tool result, a slash
 * command, a compaction; or nothing written at all), each with what `partitionTime` counts it as, by its rule: so a
 * picture of the time (the waterfall) can show where its totals put them.
 */
export function uncoveredTime(activity: ThreadActivity, idleThresholdMs: number = IDLE_THRESHOLD_MS): UncoveredTime[] {
  const out: UncoveredTime[] = [];
  if (!(activity.endMs > activity.startMs)) return out;
  const as = { tool: 'tool', user: 'user', person: 'user', idle: 'idle', away: 'idle', model: 'user' } as const;
  walkTime(activity, idleThresholdMs, (from, to, label, covered) => {
    if (!covered) out.push({ startMs: from, endMs: to, countedAs: as[labels[label] as Label] });
  });
  return out;
}

/**
 * The thread's time from its start to its end as spans, each with the label it counts as (an index of `labels`) and
 * whether a record covers it (`partitionTime`'s rule, see there), in time order.
 */
function walkTime(
  activity: ThreadActivity,
  idleThresholdMs: number,
  onSpan: (fromMs: number, toMs: number, label: number, covered: boolean) => void,
): void {
  const { startMs, endMs } = activity;
  // Edges as (time, label index, +1 | −1); labels are indexed in priority order.
  const edges: [number, number, number][] = [];
  const push = (list: readonly Interval[], label: (i: Interval) => Label): void => {
    for (const i of list) {
      const s = Math.max(i.startMs, startMs);
      const e = Math.min(i.endMs, endMs);
      if (!(e > s)) continue;
      const l = labels.indexOf(label(i));
      edges.push([s, l, 1], [e, l, -1]);
    }
  };
  push(activity.personTools, () => 'person');
  push(activity.approvals ?? [], (i) => (isIdleWait(i, idleThresholdMs) ? 'away' : 'person'));
  push(activity.tools, () => 'tool');
  push(activity.model, () => 'model');
  push(activity.userWaits, (i) => (isIdleWait(i, idleThresholdMs) ? 'idle' : 'user'));
  edges.sort((a, b) => a[0] - b[0]);
  const open = labels.map(() => 0);
  const IDLE = labels.indexOf('idle');
  const MODEL = labels.indexOf('model');
  const USER = labels.indexOf('user');
  const TOOL = labels.indexOf('tool');
  let unlabelled = 0;
  let previous = -1;
  /** Gives the time covered by nothing (ending at `atMs`) to the label before it (or, after a response, the one after it). */
  const flushUnlabelled = (next: number, atMs: number): void => {
    if (unlabelled === 0) return;
    let to = previous === -1 ? next : previous;
    if (to === MODEL) to = next === -1 || next === MODEL ? USER : next;
    // after a tool whose turn went no further (it was interrupted or refused, or the session ends), the person's
    if (to === TOOL && (next === -1 || next === USER || next === IDLE)) to = USER;
    if (to === -1) to = USER;
    onSpan(atMs - unlabelled, atMs, unlabelled > idleThresholdMs ? IDLE : to, false);
    unlabelled = 0;
  };
  let at = startMs;
  let k = 0;
  while (at < endMs) {
    for (; k < edges.length; k++) {
      const edge = edges[k] as [number, number, number];
      if (edge[0] > at) break;
      open[edge[1]] = (open[edge[1]] ?? 0) + edge[2];
    }
    const next = Math.min(k < edges.length ? (edges[k] as [number, number, number])[0] : endMs, endMs);
    const span = next - at;
    let label = -1;
    for (let l = 0; l < open.length; l++) {
      if ((open[l] ?? 0) > 0) {
        label = l;
        break;
      }
    }
    if (label === -1) unlabelled += span;
    else {
      flushUnlabelled(label, at);
      onSpan(at, next, label, true);
      previous = label;
    }
    at = next;
  }
  flushUnlabelled(-1, endMs);
}

/**
 * Active time: the wall time less idle time (model, tools and waiting for the person), what "where the time went"
 * ranks by: a session left open for months (a fixture whose records span four months) has a long wall time and
 * little active time.
 */
export function activeMs(t: Pick<SessionTime, 'wallMs' | 'idleMs'>): number;
/** Unknown (null) when the wall time is. */
export function activeMs(t: Pick<ReportedTime, 'wallMs' | 'idleMs'>): number | null;
export function activeMs(t: Pick<ReportedTime, 'wallMs' | 'idleMs'>): number | null {
  return t.wallMs === null ? null : t.wallMs - t.idleMs;
}

export function addTime(a: SessionTime, b: SessionTime): SessionTime {
  return {
    wallMs: a.wallMs + b.wallMs,
    modelMs: a.modelMs + b.modelMs,
    toolMs: a.toolMs + b.toolMs,
    userMs: a.userMs + b.userMs,
    idleMs: a.idleMs + b.idleMs,
  };
}
