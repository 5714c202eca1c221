import type { StatsResponse } from '../../data/types';
import { formatToolName, realErrorRate, realErrors } from '../../ui/format';

/**
 * The analytics page's row of each tool: its name as every chart and the table show it, its calls without an error,
 * its errors not expected, and their rate in percent to one decimal.
 */
export function toolRows(tools: StatsResponse['tools']) {
  return tools.map((t) => ({
    ...t,
    name: formatToolName(t.tool, t.names ?? []),
    realErrors: realErrors(t),
    okCalls: t.calls - t.errors,
    // errors not expected over calls, as the table, the cards and the per-agent rows count them
    ratePct: Math.round(realErrorRate(t) * 1000) / 10,
  }));
}
