import { isRecord, num } from '../internal/guards.js';
import { timestampMs } from '../model/ids.js';
import type { RawCall, RawResult } from '../model/raw.js';
import type { Duration } from '../model/tool-call.js';
import { IDLE_THRESHOLD_MS } from '../time/partition.js';

/** The duration every adapter can give: call timestamp → result timestamp, when both parse and are in order. */
export function timestampDurations(
  call: Pick<RawCall, 'timestamp'>,
  raw: Pick<RawResult, 'timestamp'> | undefined,
): Duration[] {
  if (raw === undefined) return [];
  const start = timestampMs(call.timestamp);
  const end = timestampMs(raw.timestamp);
  return start !== undefined && end !== undefined && end >= start ? [{ source: 'timestamps', ms: end - start }] : [];
}

/**
 * The timestamp delta where it can be the tool's run: an agent that records no figure of a tool's own and stamps a
 * call when it was asked for (Gemini) shows a wait for the person's approval in the delta; longer than the idle
 * threshold, the delta is that wait, not the tool's time (Gemini `write_file` approved after 15 min 42 s), and the
 * call has no duration.
 */
export function timestampDurationsWithoutWaits(
  call: Pick<RawCall, 'timestamp'>,
  raw: Pick<RawResult, 'timestamp'> | undefined,
): Duration[] {
  return timestampDurations(call, raw).filter((d) => d.ms <= IDLE_THRESHOLD_MS);
}

/**
 * The timestamp delta, then the figures the tool reported itself in its structured output (`durationMs`,
 * `totalDurationMs`, `durationSeconds`), each with its source: for adapters whose decoders keep those figures.
 */
export function timestampAndReportedDurations(
  call: Pick<RawCall, 'timestamp'>,
  raw: Pick<RawResult, 'timestamp' | 'toolUseResult'> | undefined,
): Duration[] {
  const out = timestampDurations(call, raw);
  const facts = isRecord(raw?.toolUseResult) ? raw.toolUseResult : {};
  const durationMs = num(facts.durationMs);
  if (durationMs !== undefined) out.push({ source: 'durationMs', ms: durationMs });
  const totalDurationMs = num(facts.totalDurationMs);
  if (totalDurationMs !== undefined) out.push({ source: 'totalDurationMs', ms: totalDurationMs });
  const durationSeconds = num(facts.durationSeconds);
  if (durationSeconds !== undefined) out.push({ source: 'durationSeconds', ms: durationSeconds * 1000 });
  return out;
}
