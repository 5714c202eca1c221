import { timestampAndReportedDurations } from '../../agents/durations.js';
import type { RawCall, RawResult } from '../../model/raw.js';
import type { Duration } from '../../model/tool-call.js';

/** A call and its output written this close together were written at once. */
const WRITTEN_TOGETHER_MS = 5;

/**
 * A Codex call's durations: the timestamp delta, then what the output reports (`duration_seconds`, `Wall time`, an
 * exec event's `duration`). 0.34–0.63 write a call's line with its output's, after the tool ran (0.50 corpus: the
 * call and its output share a millisecond while `sleep 1.2` reports 1.2 s, as the served responses' times in
 * truth.jsonl confirm), so the delta says nothing: when it is that short and the output reports longer, it is left
 * out and the reported figure is the call's duration.
 */
export function codexDurations(
  call: Pick<RawCall, 'timestamp'>,
  raw: Pick<RawResult, 'timestamp' | 'toolUseResult'> | undefined,
): Duration[] {
  const all = timestampAndReportedDurations(call, raw);
  const delta = all.find((d) => d.source === 'timestamps');
  const reported = all.filter((d) => d.source !== 'timestamps');
  if (delta === undefined || delta.ms > WRITTEN_TOGETHER_MS || !reported.some((d) => d.ms > delta.ms)) return all;
  return reported;
}
