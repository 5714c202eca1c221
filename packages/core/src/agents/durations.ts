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
