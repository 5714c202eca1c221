import type { AgentId } from '@agentdash/core/model';
import {
  formatCost,
  formatTokensAtLeast,
  inputIsLowerBound,
  messageOf,
  modelList,
  outputIsLowerBound,
} from '@agentdash/core/present';
import { useMemo, useState } from 'react';
import { api } from '../../data/client';
import type { UnrecordedDto, UsageResponse } from '../../data/types';
import { useLiveAnswer } from '../../data/use-live-answer';
import { ANALYTICS_RELOAD_MS, useLiveTick } from '../../data/use-live-tick';
import { labelOf, projectLabels } from '../../ui/project-labels';
import { type BucketUnit, dayBuckets, firstOfLastDays } from './day-range';
import { modelColor, OTHER_MODELS_COLOR } from './model-colors';

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
  /** Models some of whose responses recorded no input, or only part of their output: the value is a lower bound. */
  readonly gaps: UnrecordedDto;
}

/**
 * A project's value as the chart's tooltip says it: a lower bound with "+ ?" where some of its responses recorded no
 * input or only part of their output (as the cards and tables say it), and that unpriced models are not in a cost.
 */
export function projectValueText(metric: Metric, bar: ProjectBar): string {
  if (bar.value === null) return 'unknown';
  const value =
    metric === 'cost'
      ? formatCost(bar.value, bar.gaps)
      : formatTokensAtLeast(bar.value, inputIsLowerBound(bar.gaps) || outputIsLowerBound(bar.gaps));
  return bar.unpriced.length === 0 ? value : `${value} + unknown (${modelList(bar.unpriced)})`;
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
 * The models of the view, in the order of its metric: `drawn` are those its chart draws (in the cost view, the priced
 * ones; a model without a price has no cost bar), `unpriced` the rest. The chart's stack, its legend, the models
 * table and the colours all take this one order, so the legend names the models of the chart's colours and the
 * costliest (or the most tokens) have colours of their own: ordering the colours by another rule gave the third
 * costliest model the grey of "the others" and a colour to unpriced models the cost chart never draws.
 */
export function chartModels(
  rows: UsageResponse['models'],
  metric: Metric,
): { readonly drawn: readonly string[]; readonly unpriced: readonly string[] } {
  const priced = new Set(rows.flatMap((m) => (m.costUsd === null ? [] : [m.model])));
  const ordered = modelsInOrder(rows, metric);
  if (metric === 'tokens') return { drawn: ordered, unpriced: [] };
  return { drawn: ordered.filter((m) => priced.has(m)), unpriced: ordered.filter((m) => !priced.has(m)) };
}

/** A model's colour in a view: by its place among the models drawn (`chartModels`); the grey past them. */
export function colorsOf(drawn: readonly string[]): (model: string) => string {
  const colors = new Map(drawn.map((m, i) => [m, modelColor(i)]));
  return (model) => colors.get(model) ?? OTHER_MODELS_COLOR;
}

type UsageProject = UsageResponse['projects'][number];

/** The `top` projects by the metric shown (cost: those without a known cost last), each as its bar. */
export function topProjects(rows: readonly UsageProject[], metric: Metric, top: number): ProjectBar[] {
  const metricOf = (p: UsageProject) => (metric === 'cost' ? p.costUsd : tokensOf(p));
  const labels = projectLabels(rows.map((p) => p.project));
  return (
    rows
      // A stable sort: ties keep the server's order.
      .map((p) => ({ p, value: metricOf(p) }))
      .sort((a, b) => (b.value ?? -1) - (a.value ?? -1))
      .slice(0, top)
      .map(({ p, value }) => ({
        name: labelOf(labels, p.project),
        value,
        // The cost shown leaves these models out (they have no price).
        unpriced: metric === 'cost' ? p.unpricedModels : [],
        gaps: {
          ...(p.inputUnrecordedModels ? { inputUnrecordedModels: p.inputUnrecordedModels } : {}),
          ...(p.outputUnrecordedModels ? { outputUnrecordedModels: p.outputUnrecordedModels } : {}),
        },
      }))
  );
}

/** How many projects the projects chart shows. */
export const TOP_PROJECTS = 12;

/** Usage of a project (or all) over a period, reloaded on live changes, with the chart rows for a metric. */
export function useUsage(project: string, range: RangeKey, metric: Metric, agent: AgentId | '' = '') {
  const [usage, setUsage] = useState<UsageResponse | undefined>();
  const [error, setError] = useState<string | undefined>();

  const tick = useLiveTick(ANALYTICS_RELOAD_MS);
  useLiveAnswer(JSON.stringify([project, agent, range]), tick, {
    ask: (signal) => {
      const days = RANGES.find((r) => r.key === range)?.days;
      const since = days === undefined ? undefined : firstOfLastDays(days);
      return api.usage({ project: project || undefined, agent: agent || undefined, since }, signal);
    },
    take: (u) => {
      setUsage(u);
      setError(undefined);
    },
    fail: (e) => setError(messageOf(e)),
  });

  // One order for the chart, its legend, the table and the colours: the metric's (chartModels).
  const { drawn, unpriced } = useMemo(() => chartModels(usage?.models ?? [], metric), [usage, metric]);
  const models = useMemo(() => [...drawn, ...unpriced], [drawn, unpriced]);
  const colorOf = useMemo(() => colorsOf(drawn), [drawn]);
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
  const projects = useMemo(() => topProjects(usage?.projects ?? [], metric, TOP_PROJECTS), [usage, metric]);
  return { usage, error, models, unpriced, colorOf, daily, unit, projects };
}
