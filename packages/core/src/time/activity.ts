import type { Interval, ThreadActivity } from './partition.js';

/** One record of a thread, reduced to what the time partition needs. */
export interface ThreadRecord {
  readonly atMs: number;
  /** A prompt the person typed; a block record of an API response (`responseKey`: its message id); anything else. */
  readonly kind: 'prompt' | 'response' | 'other';
  readonly responseKey?: string | undefined;
}

/** A tool call of the thread: from the call's record to its result's (`endMs` undefined while it has none). */
export interface ThreadCall {
  readonly startMs: number;
  readonly endMs: number | undefined;
  /** The call waits for the person (a question, a plan to approve). */
  readonly waitsForPerson: boolean;
}

/** Tools whose call waits for an answer from the person. */
export const personTools: ReadonlySet<string> = new Set(['AskUserQuestion', 'ExitPlanMode', 'exit_plan_mode']);

/**
 * The intervals of one thread from its records and calls:
 * - a response lasts from the last record before its first block record (the prompt or tool result it answers) to
 *   its last block record;
 * - a wait for the person lasts from the last record before a prompt to the prompt;
 * - a call lasts from its record to its result's (calls without a result are left out).
 */
export function threadActivity(records: readonly ThreadRecord[], calls: readonly ThreadCall[]): ThreadActivity {
  const sorted = [...records].sort((a, b) => a.atMs - b.atMs);
  const first = sorted[0];
  if (first === undefined) return { startMs: 0, endMs: 0, model: [], tools: [], personTools: [], userWaits: [] };
  let endMs = (sorted[sorted.length - 1] as ThreadRecord).atMs;
  const responses = new Map<string, { startMs: number; endMs: number }>();
  const userWaits: Interval[] = [];
  let prevMs: number | undefined;
  for (const r of sorted) {
    if (r.kind === 'response') {
      const key = r.responseKey ?? `@${r.atMs}`;
      const known = responses.get(key);
      if (known) known.endMs = Math.max(known.endMs, r.atMs);
      else responses.set(key, { startMs: prevMs ?? r.atMs, endMs: r.atMs });
      prevMs = r.atMs;
      continue;
    }
    if (r.kind === 'prompt' && prevMs !== undefined) userWaits.push({ startMs: prevMs, endMs: r.atMs });
    prevMs = r.atMs;
  }
  const tools: Interval[] = [];
  const person: Interval[] = [];
  for (const c of calls) {
    if (c.endMs === undefined || !(c.endMs >= c.startMs)) continue;
    endMs = Math.max(endMs, c.endMs);
    (c.waitsForPerson ? person : tools).push({ startMs: c.startMs, endMs: c.endMs });
  }
  return { startMs: first.atMs, endMs, model: [...responses.values()], tools, personTools: person, userWaits };
}
