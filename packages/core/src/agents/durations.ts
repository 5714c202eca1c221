import { isRecord, num } from '../internal/guards.js';
import { timestampMs } from '../model/ids.js';
import type { RawCall, RawResult } from '../model/raw.js';
import type { Duration } from '../model/tool-call.js';

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
