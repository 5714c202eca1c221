import { timestampDurations } from '../../agents/durations.js';
import { isRecord, str } from '../../internal/guards.js';
import { createIsoTimestamp } from '../../model/ids.js';
import type { RawCall, RawResult } from '../../model/raw.js';
import type { Duration } from '../../model/tool-call.js';

/**
 * A call's duration from the client's own lines: its `tool.execution_start` (kept on the result as `startedAt`) to
 * its `tool.execution_complete`, the tool's run alone; without a start line, the model's message to the result
 * (which would include a wait for a permission prompt).
 */
export function copilotDurations(call: RawCall, raw: RawResult | undefined): Duration[] {
  const facts = isRecord(raw?.toolUseResult) ? raw.toolUseResult : {};
  const startedAt = str(facts.startedAt);
  return timestampDurations(startedAt === undefined ? call : { timestamp: createIsoTimestamp(startedAt) }, raw);
}
