/** Usage reports: priced responses grouped into the `usage` command's JSON entries and table rows. */

import { type CostGaps, formatTokensAtLeast, inputIsLowerBound, outputIsLowerBound } from '@agentdash/core/present';
import { type ModelUsage, type PriceTable, totalTokens, type UsageGroup, usageTotalsOf } from '@agentdash/core/usage';
import { formatCost, formatTokens, shortModel } from './format.js';
import type { UsageEntryJson, UsageTotalsJson } from './output/json-types.js';

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

/** Output tokens, with the part spent on reasoning on its own when there is any (it is part of the output). */
function outputCell(u: { outputTokens: number; reasoningOutputTokens: number }, gaps: CostGaps): string {
  const out = formatTokensAtLeast(u.outputTokens, outputIsLowerBound(gaps));
  return u.reasoningOutputTokens > 0 ? `${out} (of which reasoning ${formatTokens(u.reasoningOutputTokens)})` : out;
}

/** Table cells of a group: models, input, output, cache write, cache read, total tokens, cost (`gaps`: its own). */
function usageCells(u: UsageGroup | ModelUsage, models: string, gaps: CostGaps): string[] {
  return [
    models,
    // Input, output (and the total holding them) lower bounds where some responses did not record them, as `show`
    // gives them.
    formatTokensAtLeast(u.inputTokens, inputIsLowerBound(gaps)),
    outputCell(u, gaps),
    formatTokens(u.cacheCreationInputTokens),
    formatTokens(u.cacheReadInputTokens),
    formatTokensAtLeast(totalTokens(u), inputIsLowerBound(gaps) || outputIsLowerBound(gaps)),
    formatCost(u.costUsd, gaps),
  ];
}

/**
 * The columns after the first (date, session, block): in a narrow terminal the models are cut, then TOTAL, CACHE
 * WRITE and MODELS left out; figures are never cut.
 */
export const usageColumns = [
  { header: 'MODELS', max: 40, min: 12, drop: 3 },
  { header: 'INPUT', align: 'right' },
  { header: 'OUTPUT', align: 'right' },
  { header: 'CACHE WRITE', align: 'right', drop: 2 },
  { header: 'CACHE READ', align: 'right' },
  { header: 'TOTAL', align: 'right', drop: 1 },
  { header: 'COST', align: 'right' },
] as const;

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
