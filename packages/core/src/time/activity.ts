import type { DataKind } from '../model/typed-result.js';
import { IDLE_THRESHOLD_MS, type Interval, type ThreadActivity } from './partition.js';

/**
 * One record of a thread, reduced to what the time partition needs: a prompt the person typed; a request the client
 * sent to the model (`requestKey`: its id); a block record of a model response (`responseKey`: its message id;
 * `requestKey`: the request it answers, when the client wrote that); anything else (tool results, attachments,
 * synthetic messages the client wrote itself).
 */
export interface ThreadRecord {
  readonly atMs: number;
  readonly kind: 'prompt' | 'request' | 'response' | 'other';
  readonly responseKey?: string | undefined;
  readonly requestKey?: string | undefined;
}

/** A tool call of the thread: from the call's record to its result's (`endMs` undefined while it has none). */
export interface ThreadCall {
  readonly startMs: number;
  readonly endMs: number | undefined;
  /** The call waits for the person (a question, a plan to approve). */
  readonly waitsForPerson: boolean;
  /**
   * The call's duration (`primaryDurationMs` of what the agent's adapter gives: the timestamps' delta, or the tool's
   * own figure where the adapter trusts that instead, as Codex's `Wall time` after an approval); undefined when none.
   */
  readonly ranMs?: number | undefined;
  /** The call started a subagent, whose own records show its work however long it ran. */
  readonly startsSubagent?: boolean | undefined;
}

/**
 * Result kinds whose calls wait for an answer from the person: a question put to the user, a plan to approve. By
 * kind, not by tool name, so that every agent whose adapter types a tool onto these kinds partitions the same way.
 */
export const personKinds: ReadonlySet<DataKind> = new Set<DataKind>(['ask-user-question', 'exit-plan-mode']);

/** Whether a call of this result kind (the adapter's `kindOfTool` of its canonical name) waits for the person. */
export function waitsForPerson(kind: DataKind | undefined): boolean {
  return kind !== undefined && personKinds.has(kind);
}

/**
 * The intervals of one thread from its records and calls:
 * - a response lasts from its request to its last block record. The request is the `request` record the response
 *   names (Claude Code 2.1.x writes one as each request goes out); without one, the last record before the
 *   response's first block record (the prompt or tool result it answers), so that the client's own work before
 *   sending counts as model time there. Requests before the named one since the last response or prompt failed (an
 *   API error, then the client's wait to retry): the wait starts at the first of them. Requests no response answered
 *   wait up to the last record before the next prompt or the thread's end (the client's own error message);
 * - a wait for the person lasts from the last record before a prompt to the prompt;
 * - a call lasts from its record to its result's (calls without a result are left out). Its tool ran for the call's
 *   duration (`ranMs`) up to its result: when that is shorter, the time before the tool started was a wait for the
 *   person (an approval: `approvals`); when it is longer (a call written with its output, after the tool ran), the
 *   tool's run starts before the call's record. A call with no figure of its own, or whose figure is its whole
 *   delta, that lasted longer than `IDLE_THRESHOLD_MS` is a wait as a whole (no tool runs that long without a person
 *   approving it: Claude Code's Bash stops at 10 minutes), unless it started a subagent.
 * The thread spans its records other than requests (a request always precedes a record of its own).
 */
export function threadActivity(records: readonly ThreadRecord[], calls: readonly ThreadCall[]): ThreadActivity {
  const sorted = [...records].sort((a, b) => a.atMs - b.atMs);
  const spanning = sorted.filter((r) => r.kind !== 'request');
  const first = spanning[0];
  if (first === undefined) {
    return { startMs: 0, endMs: 0, model: [], tools: [], personTools: [], userWaits: [], approvals: [] };
  }
  let endMs = (spanning[spanning.length - 1] as ThreadRecord).atMs;
  const requests = new Map<string, number>();
  for (const r of sorted) if (r.kind === 'request' && r.requestKey !== undefined) requests.set(r.requestKey, r.atMs);
  const responses = new Map<string, { startMs: number; endMs: number }>();
  const unanswered: Interval[] = [];
  const userWaits: Interval[] = [];
  let prevMs: number | undefined;
  // The first request since the last response or prompt: those before the one a response names failed (an API
  // error, then the client's wait to retry), and their time is the model's wait too.
  let firstSent: number | undefined;
  /** Requests that got no response at all: the model's wait up to the last record before what ends them. */
  const giveUp = (): void => {
    if (firstSent !== undefined && prevMs !== undefined && prevMs > firstSent) {
      unanswered.push({ startMs: firstSent, endMs: prevMs });
    }
    firstSent = undefined;
  };
  for (const r of sorted) {
    if (r.kind === 'request') firstSent ??= r.atMs;
    else if (r.kind === 'response') {
      const key = r.responseKey ?? `@${r.atMs}`;
      const known = responses.get(key);
      if (known) known.endMs = Math.max(known.endMs, r.atMs);
      else {
        const sent = r.requestKey === undefined ? undefined : requests.get(r.requestKey);
        const named = sent !== undefined && sent <= r.atMs;
        const startMs = named ? Math.min(sent, firstSent ?? sent) : (prevMs ?? r.atMs);
        responses.set(key, { startMs, endMs: r.atMs });
      }
      firstSent = undefined;
    } else if (r.kind === 'prompt') {
      giveUp();
      if (prevMs !== undefined) userWaits.push({ startMs: prevMs, endMs: r.atMs });
    }
    prevMs = r.atMs;
  }
  // The thread ends after requests no response answered (the client gave up): up to its last record.
  if (firstSent !== undefined) {
    prevMs = (spanning[spanning.length - 1] as ThreadRecord).atMs;
    giveUp();
  }
  const tools: Interval[] = [];
  const person: Interval[] = [];
  const approvals: Interval[] = [];
  for (const c of calls) {
    if (c.endMs === undefined || !(c.endMs >= c.startMs)) continue;
    endMs = Math.max(endMs, c.endMs);
    const whole = { startMs: c.startMs, endMs: c.endMs };
    const ran = c.ranMs === undefined ? undefined : Math.round(c.ranMs);
    if (c.waitsForPerson) person.push(whole);
    else if (ran !== undefined && ran >= 0 && ran !== whole.endMs - whole.startMs) {
      const runStart = c.endMs - ran;
      tools.push({ startMs: runStart, endMs: c.endMs });
      if (runStart > c.startMs) approvals.push({ startMs: c.startMs, endMs: runStart });
    } else if (whole.endMs - whole.startMs > IDLE_THRESHOLD_MS && !c.startsSubagent) approvals.push(whole);
    else tools.push(whole);
  }
  return {
    startMs: first.atMs,
    endMs,
    model: [...responses.values(), ...unanswered],
    tools,
    personTools: person,
    userWaits,
    approvals,
  };
}
