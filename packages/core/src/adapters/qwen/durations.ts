import { timestampAndReportedDurations, timestampDurationsWithoutWaits } from '../../agents/durations.js';
import type { RawCall, RawResult } from '../../model/raw.js';
import type { Duration } from '../../model/tool-call.js';

/**
 * A call's durations: the timestamp delta from its response's line to its result's (none when longer than the idle
 * threshold: a wait for the person's approval), then the tool's own `duration_ms` from its `qwen-code.tool_call`
 * telemetry line (kept on the result as `durationMs` by the decoder).
 */
export function qwenDurations(call: RawCall, raw: RawResult | undefined): Duration[] {
  const reported = timestampAndReportedDurations(call, raw).filter((d) => d.source === 'durationMs');
  return [...timestampDurationsWithoutWaits(call, raw), ...reported];
}
