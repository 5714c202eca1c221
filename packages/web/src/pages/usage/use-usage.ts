import type { AgentId } from '@agentdash/core/model';
import { messageOf } from '@agentdash/core/present';
import { useEffect, useMemo, useState } from 'react';
import { api } from '../../data/client';
import type { UsageResponse } from '../../data/types';
import { ANALYTICS_RELOAD_MS, useLiveTick } from '../../data/use-live-tick';
import { shortPath } from '../../ui/format';
import { type BucketUnit, dayBuckets } from './day-range';
import { modelColor } from './model-colors';

export const RANGES = [
  { key: 'all', label: 'All time', days: undefined },
  { key: '30d', label: 'Last 30 days', days: 30 },
  { key: '7d', label: 'Last 7 days', days: 7 },
] as const;
export type RangeKey = (typeof RANGES)[number]['key'];
export type Metric = 'cost' | 'tokens';

/** One project's bar: its cost (null when none of its models has a price) or tokens. */
export interface ProjectBar {
  readonly name: string;
  readonly value: number | null;
  readonly unpriced: readonly string[];
}

/**
 * One bar of the daily chart (a day, or a week or month over a long span): its first date, and each model's cost
 * (null: no price) or tokens.
 */
export type DayRow = Record<string, string | number | null>;

const zeros = (models: readonly string[]) => Object.fromEntries(models.map((m) => [m, 0]));

export const tokensOf = (u: {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
}) => u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;

/** The models in the order of the metric shown: as the server gives them (costliest first), or most tokens first. */
export function modelsInOrder(rows: UsageResponse['models'], metric: Metric): string[] {
  const ordered = [...rows];
  if (metric === 'tokens') ordered.sort((a, b) => tokensOf(b) - tokensOf(a));
  return ordered.map((m) => m.model);
}

/**
 * The models in the order their colours go (`modelColor`), the same in both views: by the better of a model's rank by
 * cost and its rank by tokens (ties: by cost), so that the costliest models and those of the most tokens (a cheap or
 * unpriced one) each have a colour of their own, and switching the metric repaints nothing.
 */
export function modelsByColor(rows: UsageResponse['models']): string[] {
  const byCost = modelsInOrder(rows, 'cost');
  const byTokens = modelsInOrder(rows, 'tokens');
  const rank = (m: string) => Math.min(byCost.indexOf(m), byTokens.indexOf(m));
  return [...byCost].sort((a, b) => rank(a) - rank(b) || byCost.indexOf(a) - byCost.indexOf(b));
}

/** Usage of a project (or all) over a period, reloaded on live changes, with the chart rows for a metric. */
export function useUsage(project: string, range: RangeKey, metric: Metric, agent: AgentId | '' = '') {
  const [usage, setUsage] = useState<UsageResponse | undefined>();
  const [error, setError] = useState<string | undefined>();

  const tick = useLiveTick(ANALYTICS_RELOAD_MS);
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick reloads on live changes
  useEffect(() => {
    const ctl = new AbortController();
    const days = RANGES.find((r) => r.key === range)?.days;
    const since = days === undefined ? undefined : new Date(Date.now() - days * 86_400_000).toISOString();
    api
      .usage({ project: project || undefined, agent: agent || undefined, since }, ctl.signal)
      .then((u) => {
        setUsage(u);
        setError(undefined);
      })
      .catch((e: unknown) => !ctl.signal.aborted && setError(messageOf(e)));
    return () => ctl.abort();
  }, [project, agent, range, tick]);

  // In the order of the metric shown (the costliest, or the most tokens, first): the first have colours of their own
  // (model-colors.ts), so a model of many cheap or unpriced tokens is not lost in the grey of "the others".
  const models = useMemo(() => modelsInOrder(usage?.models ?? [], metric), [usage, metric]);
  // The same colour for a model in both views: switching Cost and Tokens must not repaint it.
  const colorOf = useMemo(() => {
    const colors = new Map(modelsByColor(usage?.models ?? []).map((m, i) => [m, modelColor(i)]));
    return (model: string) => colors.get(model) ?? modelColor(colors.size);
  }, [usage]);
  const { daily, unit } = useMemo(() => {
    // Every day (week, month) from the first to the last, those without usage as zeros, so that a bar's place says
    // its date.
    const buckets = dayBuckets((usage?.days ?? []).map((d) => d.date).sort());
    const rows = new Map<string, DayRow>(buckets.keys.map((date) => [date, { date, ...zeros(models) }]));
    for (const d of usage?.days ?? []) {
      const row = rows.get(buckets.keyOf(d.date));
      if (row === undefined) continue;
      for (const m of models) {
        const u = d.models[m];
        if (!u) continue;
        // A model without a price has no cost (null), never $0: its bar is left out and its tooltip says unknown.
        const value = metric === 'cost' ? u.costUsd : tokensOf(u);
        const had = row[m];
        row[m] = value === null ? (had === 0 ? null : (had ?? null)) : (typeof had === 'number' ? had : 0) + value;
      }
    }
    const unit: BucketUnit = buckets.unit;
    return { daily: [...rows.values()], unit };
  }, [usage, models, metric]);
  const projects = useMemo(
    () =>
      (usage?.projects ?? []).slice(0, 12).map(
        (p): ProjectBar => ({
          name: shortPath(p.project),
          value: metric === 'cost' ? p.costUsd : tokensOf(p),
          // The cost shown leaves these models out (they have no price).
          unpriced: metric === 'cost' ? p.unpricedModels : [],
        }),
      ),
    [usage, metric],
  );
  return { usage, error, models, colorOf, daily, unit, projects };
}
