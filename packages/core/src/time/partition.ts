/** Where a session's time went; the parts sum to `wallMs`. */
export interface SessionTime {
  /** From the thread's first to its last timestamp. */
  readonly wallMs: number;
  /** Waiting on the model: from the request (the record before a response) to the last block of the response. */
  readonly modelMs: number;
  /** Tools running (union of call → result intervals; parallel calls count once; subagents sit inside their call). */
  readonly toolMs: number;
  /** Waiting for the person: before each prompt, and calls that ask the person (questions, plan approval). */
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
  /** Calls that wait for the person (AskUserQuestion, ExitPlanMode, …). */
  readonly personTools: readonly Interval[];
  /** From the last record before a prompt to the prompt. */
  readonly userWaits: readonly Interval[];
}

/** A wait for the person, or a stretch without activity, longer than this is idle time: 15 minutes. */
export const IDLE_THRESHOLD_MS = 15 * 60_000;

const labels = ['person', 'tool', 'model', 'user', 'idle'] as const;
type Label = (typeof labels)[number];

export const zeroTime: SessionTime = { wallMs: 0, modelMs: 0, toolMs: 0, userMs: 0, idleMs: 0 };

/**
 * Splits a thread's wall time into model, tool, user and idle time. Where intervals overlap, the first of these wins:
 * a call waiting for the person, a running tool, the model, a wait for the person. Waits longer than
 * `idleThresholdMs` are idle. Time covered by nothing is the client's own work after what came before it (hooks and
 * attachments after a tool result or a prompt, writing a response): it counts as that (tool, user or model time),
 * or as idle when longer than the threshold.
 */
export function partitionTime(activity: ThreadActivity, idleThresholdMs: number = IDLE_THRESHOLD_MS): SessionTime {
  const { startMs, endMs } = activity;
  if (!(endMs > startMs)) return zeroTime;
  const edges: { at: number; label: Label; delta: 1 | -1 }[] = [];
  const push = (list: readonly Interval[], label: (i: Interval) => Label): void => {
    for (const i of list) {
      const s = Math.max(i.startMs, startMs);
      const e = Math.min(i.endMs, endMs);
      if (!(e > s)) continue;
      const l = label(i);
      edges.push({ at: s, label: l, delta: 1 }, { at: e, label: l, delta: -1 });
    }
  };
  push(activity.personTools, () => 'person');
  push(activity.tools, () => 'tool');
  push(activity.model, () => 'model');
  push(activity.userWaits, (i) => (i.endMs - i.startMs > idleThresholdMs ? 'idle' : 'user'));
  edges.sort((a, b) => a.at - b.at);
  const open: Record<Label, number> = { person: 0, tool: 0, model: 0, user: 0, idle: 0 };
  const sums: Record<Label, number> = { person: 0, tool: 0, model: 0, user: 0, idle: 0 };
  let unlabelled = 0;
  let previous: Label | undefined;
  const flushUnlabelled = (): void => {
    if (unlabelled > idleThresholdMs) sums.idle += unlabelled;
    else sums[previous ?? 'model'] += unlabelled;
    unlabelled = 0;
  };
  let at = startMs;
  let k = 0;
  while (at < endMs) {
    while (k < edges.length && (edges[k] as (typeof edges)[number]).at <= at) {
      const edge = edges[k] as (typeof edges)[number];
      open[edge.label] += edge.delta;
      k += 1;
    }
    const next = Math.min(k < edges.length ? (edges[k] as (typeof edges)[number]).at : endMs, endMs);
    const span = next - at;
    const label = labels.find((l) => open[l] > 0);
    if (label === undefined) unlabelled += span;
    else {
      flushUnlabelled();
      sums[label] += span;
      previous = label;
    }
    at = next;
  }
  flushUnlabelled();
  return {
    wallMs: endMs - startMs,
    modelMs: sums.model,
    toolMs: sums.tool,
    userMs: sums.user + sums.person,
    idleMs: sums.idle,
  };
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
