import { timestampAndReportedDurations } from '../../agents/durations.js';
import { isRecord } from '../../internal/guards.js';
import type { RawCall, RawResult } from '../../model/raw.js';
import type { Duration } from '../../model/tool-call.js';
import { IDLE_THRESHOLD_MS } from '../../time/partition.js';

/**
 * A run reported under a second whose output came this much later waited for something else first: the person's
 * approval in a read-only sandbox (`approval_policy: on-request`), which no argument of the call says.
 */
const WAITED_MS = 10_000;
/** A call and its output written this close together were written at once. */
const WRITTEN_TOGETHER_MS = 5;

/** The fact the decoder adds to an output whose client wrote its call's line with it, after the tool ran. */
export const CALL_WRITTEN_AFTER_RUN = { callWrittenAfterRun: true } as const;

/**
 * The call asked the person to approve it (to run outside the sandbox): `sandbox_permissions: "require_escalated"`
 * (0.101+) or `with_escalated_permissions: true` (0.4x–0.9x) in its arguments.
 */
export function codexAsksApproval(input: unknown): boolean {
  if (!isRecord(input)) return false;
  return input.sandbox_permissions === 'require_escalated' || input.with_escalated_permissions === true;
}

/**
 * A Codex call's durations: for a call whose outcome is on its own line, only what it reports (a script's MCP call's run;
 * a web search reports none); else the timestamp delta, then what the output reports (`duration_seconds`, `Wall time`, an
 * exec event's `duration`). The delta is left out, so that the reported figure is the call's duration, when it says
 * nothing of the tool's run:
 * - 0.34–0.63 write a call's line with its output's, after the tool ran (0.50 corpus: the call and its output share a
 *   millisecond while `sleep 1.2` reports 1.2 s, as the served responses' times in truth.jsonl confirm): always, when
 *   the decoder knows the version (`CALL_WRITTEN_AFTER_RUN`), else a delta that short, with an output reporting longer;
 * - a call that asked the person's approval, or whose delta is longer than its reported run by more than the idle
 *   threshold, waited for the person before it ran (crm-admin 019c6a7c: `dotnet restore` approved 15 h 36 min after
 *   the call, `Wall time: 3.2 seconds`); so did a run reported under a second whose output came more than 10 s
 *   later (dusseldorfer-1: an apply_patch in a read-only sandbox, 0.0 s reported 54 s after its call).
 */
export function codexDurations(
  call: Pick<RawCall, 'timestamp' | 'loc'> & Partial<Pick<RawCall, 'input'>>,
  raw: Pick<RawResult, 'timestamp' | 'toolUseResult' | 'loc'> | undefined,
): Duration[] {
  const all = timestampAndReportedDurations(call, raw);
  // A result read from its call's own line (a web search, an image generation: the service ran it and the client
  // wrote only its outcome, once) has only the run it reports (a script's MCP call's): no delta says when it started.
  if (raw !== undefined && raw.loc.line === call.loc.line) return all.filter((d) => d.source !== 'timestamps');
  // Written after the tool ran (0.63 and earlier): the call's line and its output's share a millisecond, or a few,
  // whatever the run took: an output that reports no run leaves the call without a duration, not "0 ms".
  if (isRecord(raw?.toolUseResult) && raw.toolUseResult.callWrittenAfterRun === true) {
    return all.filter((d) => d.source !== 'timestamps');
  }
  const delta = all.find((d) => d.source === 'timestamps');
  const reported = all.filter((d) => d.source !== 'timestamps');
  if (delta === undefined || reported.length === 0) return all;
  const ran = Math.max(...reported.map((d) => d.ms));
  const writtenTogether = delta.ms <= WRITTEN_TOGETHER_MS && ran > delta.ms;
  const waited =
    ran < delta.ms && (codexAsksApproval(call.input) || delta.ms - ran > (ran < 1000 ? WAITED_MS : IDLE_THRESHOLD_MS));
  return writtenTogether || waited ? reported : all;
}
