/** Usage reports: priced responses grouped into the `usage` command's JSON entries and table rows. */
import { type BillingBlock, type ModelUsage, type PriceTable, totalTokens, type UsageGroup } from '@agentdash/core';
import type { UsageEntryJson, UsageTotalsJson } from './output/json-types.js';

export function totalsJson(u: UsageGroup | ModelUsage): UsageTotalsJson {
  return {
    responses: u.responses,
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    cacheCreationInputTokens: u.cacheCreationInputTokens,
    cacheReadInputTokens: u.cacheReadInputTokens,
    costUsd: u.costUsd,
  };
}

export function entryJson(u: UsageGroup): UsageEntryJson {
  return {
    models: Object.fromEntries(Object.entries(u.models).map(([m, t]) => [m, totalsJson(t)])),
    costUsd: u.costUsd,
  };
}

export function pricesJson(prices: PriceTable): { date: string; source: string } {
  return { date: prices.date, source: prices.source };
}

/** `$1.23`, `$0.0042`; `unknown` when null; `$1.23 + ?` when some models of the group have no price. */
export function formatCost(cost: number | null, unpriced: readonly string[] = []): string {
  if (cost === null) return 'unknown';
  const text = cost >= 1 || cost === 0 ? `$${cost.toFixed(2)}` : `$${cost.toPrecision(2)}`;
  return unpriced.length > 0 ? `${text} + ?` : text;
}

/** `1,234`, `12.3k`, `4.5M`. */
export function formatTokens(n: number): string {
  if (n < 10_000) return n.toLocaleString('en-US');
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  if (n < 1_000_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  return `${(n / 1_000_000_000).toFixed(2)}B`;
}

export function shortModel(model: string): string {
  return model.replace(/^claude-/, '').replace(/-\d{8}$/, '');
}

/** Table cells of a group: models, input, output, cache write, cache read, total tokens, cost. */
export function usageCells(u: UsageGroup | ModelUsage, models: string): string[] {
  const unpriced = 'unpricedModels' in u ? u.unpricedModels : [];
  return [
    models,
    formatTokens(u.inputTokens),
    formatTokens(u.outputTokens),
    formatTokens(u.cacheCreationInputTokens),
    formatTokens(u.cacheReadInputTokens),
    formatTokens(totalTokens(u)),
    formatCost(u.costUsd, unpriced),
  ];
}

export const usageColumns = [
  { header: 'MODELS', max: 40 },
  { header: 'INPUT', align: 'right' },
  { header: 'OUTPUT', align: 'right' },
  { header: 'CACHE WRITE', align: 'right' },
  { header: 'CACHE READ', align: 'right' },
  { header: 'TOTAL', align: 'right' },
  { header: 'COST', align: 'right' },
] as const;

/** Rows for one group: its own, then (with breakdown) one per model. */
export function groupRows(label: string, u: UsageGroup, breakdown: boolean): string[][] {
  const models = Object.keys(u.models);
  const rows = [[label, ...usageCells(u, models.map(shortModel).join(', '))]];
  if (breakdown && models.length > 0) {
    for (const [model, m] of Object.entries(u.models)) rows.push(['', ...usageCells(m, `└ ${shortModel(model)}`)]);
  }
  return rows;
}

/** `2h 13m`. */
export function formatRemaining(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  return minutes >= 60 ? `${Math.floor(minutes / 60)}h ${minutes % 60}m` : `${minutes}m`;
}

export function blockLabel(block: BillingBlock, formatTime: (ms: number) => string): string {
  return `${formatTime(block.startMs)}${block.isActive ? ' (active)' : ''}`;
}
