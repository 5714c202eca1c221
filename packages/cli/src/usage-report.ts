/** Usage reports: priced responses grouped into the `usage` command's JSON entries and table rows. */

import { type CostGaps, formatTokensAtLeast, inputIsLowerBound, outputIsLowerBound } from '@agentdash/core/present';
import { type ModelUsage, type PriceTable, totalTokens, type UsageGroup, usageTotalsOf } from '@agentdash/core/usage';
import { formatCost, formatTokens, shortModel } from './format.js';
import type { UsageEntryJson, UsageTotalsJson } from './output/json-types.js';
import type { Column } from './table.js';

export { formatCost, formatTokens };

export function totalsJson(u: UsageGroup | ModelUsage): UsageTotalsJson {
  return { ...usageTotalsOf(u), costUsd: u.costUsd };
}

export function entryJson(u: UsageGroup): UsageEntryJson {
  return {
    models: Object.fromEntries(Object.entries(u.models).map(([m, t]) => [m, totalsJson(t)])),
    costUsd: u.costUsd,
    ...(u.inputUnrecordedModels === undefined ? {} : { inputUnrecordedModels: u.inputUnrecordedModels }),
    ...(u.outputUnrecordedModels === undefined ? {} : { outputUnrecordedModels: u.outputUnrecordedModels }),
  };
}

export function pricesJson(prices: PriceTable): { date: string; source: string } {
  return { date: prices.date, source: prices.source };
}

/** Table cells of a group: models, input, output, reasoning, cache write, cache read, total, cost (`gaps`: its own). */
function usageCells(u: UsageGroup | ModelUsage, models: string, gaps: CostGaps): string[] {
  return [
    models,
    // Input, output (and the total holding them) lower bounds where some responses did not record them, as `show`
    // gives them.
    formatTokensAtLeast(u.inputTokens, inputIsLowerBound(gaps)),
    formatTokensAtLeast(u.outputTokens, outputIsLowerBound(gaps)),
    // the part of the output spent on reasoning, where an agent reports it (empty for none)
    u.reasoningOutputTokens > 0 ? formatTokens(u.reasoningOutputTokens) : '',
    formatTokens(u.cacheCreationInputTokens),
    formatTokens(u.cacheReadInputTokens),
    formatTokensAtLeast(totalTokens(u), inputIsLowerBound(gaps) || outputIsLowerBound(gaps)),
    formatCost(u.costUsd, gaps),
  ];
}

/** Where the REASONING cells are in a row (after its first cell, the date, session or block). */
const REASONING_AT = 4;

/**
 * The columns after the first (date, session, block): in a narrow terminal the models are cut, then TOTAL, CACHE
 * WRITE, REASONING and MODELS left out (MODELS never with `breakdown`: it names each model's row); figures are never
 * cut. REASONING is there when some row has a part of its output spent on reasoning; `rows` come back to match.
 */
export function usageTable(
  rows: readonly (readonly string[])[],
  breakdown: boolean,
): { readonly columns: readonly Column[]; readonly rows: readonly (readonly string[])[] } {
  const columns: Column[] = [
    { header: 'MODELS', max: 80, min: 12, ...(breakdown ? {} : { drop: 4 }) },
    { header: 'INPUT', align: 'right' },
    { header: 'OUTPUT', align: 'right' },
    { header: 'REASONING', align: 'right', drop: 3 },
    { header: 'CACHE WRITE', align: 'right', drop: 2 },
    { header: 'CACHE READ', align: 'right' },
    { header: 'TOTAL', align: 'right', drop: 1 },
    { header: 'COST', align: 'right' },
  ];
  if (rows.some((r) => (r[REASONING_AT] ?? '') !== '')) return { columns, rows };
  return {
    columns: columns.filter((c) => c.header !== 'REASONING'),
    rows: rows.map((r) => r.filter((_, i) => i !== REASONING_AT)),
  };
}

/** Rows for one group: its own, then (with breakdown) one per model. */
export function groupRows(label: string, u: UsageGroup, breakdown: boolean): string[][] {
  const models = Object.keys(u.models);
  const rows = [[label, ...usageCells(u, models.map(shortModel).join(', '), u)]];
  if (breakdown && models.length > 0) {
    for (const [model, m] of Object.entries(u.models)) {
      // A model's own row: unknown when it has no price, a lower bound when some of its responses recorded no input
      // or not their output.
      const gaps = {
        unpricedModels: [],
        inputUnrecordedModels: (u.inputUnrecordedModels ?? []).filter((x) => x === model),
        outputUnrecordedModels: (u.outputUnrecordedModels ?? []).filter((x) => x === model),
      };
      rows.push(['', ...usageCells(m, `└ ${shortModel(model)}`, gaps)]);
    }
  }
  return rows;
}

/** `2h 13m`. */
export function formatRemaining(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  return minutes >= 60 ? `${Math.floor(minutes / 60)}h ${minutes % 60}m` : `${minutes}m`;
}
