import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ChartTheme } from '../analytics/chart-theme';
import { DISTINCT_MODELS, modelColor, OTHER_MODELS_COLOR } from './model-colors';
import { DailyChart } from './UsageCharts';
import { modelsByColor, modelsInOrder } from './use-usage';

const theme: ChartTheme = {
  C: { calls: '#000', ok: '#000', err: '#000', exp: '#000', grid: '#000', text: '#000' },
  tooltipStyle: { contentStyle: {}, labelStyle: {}, itemStyle: {} },
} as unknown as ChartTheme;

describe('model colours', () => {
  it('give the costliest models a colour each and the rest one grey, never a colour twice', () => {
    const colors = Array.from({ length: 30 }, (_, i) => modelColor(i));
    const own = colors.slice(0, DISTINCT_MODELS);
    expect(new Set(own).size).toBe(DISTINCT_MODELS);
    expect(own).not.toContain(OTHER_MODELS_COLOR);
    expect(new Set(colors.slice(DISTINCT_MODELS))).toEqual(new Set([OTHER_MODELS_COLOR]));
  });

  it('a legend of ten models names the first seven and counts the other three', () => {
    const models = Array.from({ length: 10 }, (_, i) => `model-${i}`);
    const html = renderToStaticMarkup(
      <DailyChart
        theme={theme}
        metric="tokens"
        daily={[{ date: '2026-11-01', 'model-0': 5 }]}
        models={models}
        colorOf={(m) => modelColor(models.indexOf(m))}
      />,
    );
    const legend = html.slice(html.indexOf('data-testid="usage-legend"'));
    expect(legend.match(/<li/g)).toHaveLength(DISTINCT_MODELS + 1);
    expect(legend).toContain('3 other models');
    expect(legend).toContain('title="model-7, model-8, model-9"');
  });

  it('in the tokens view, the models of most tokens come first (an unpriced one too), so they have colours', () => {
    const row = (model: string, tokens: number, costUsd: number | null) => ({
      model,
      responses: 1,
      inputTokens: tokens,
      outputTokens: 0,
      cacheCreationInputTokens: 0,
      cacheCreation1hInputTokens: 0,
      cacheReadInputTokens: 0,
      reasoningOutputTokens: 0,
      costUsd,
    });
    const rows = [row('dear', 10, 5), row('cheap', 1_000, 0.01), row('unpriced', 50_000, null)];
    expect(modelsInOrder(rows as never, 'cost')).toEqual(['dear', 'cheap', 'unpriced']);
    expect(modelsInOrder(rows as never, 'tokens')).toEqual(['unpriced', 'cheap', 'dear']);
  });

  it('colour the models in one order for both views: the costliest and the most tokens first', () => {
    const row = (model: string, tokens: number, costUsd: number | null) =>
      ({
        model,
        inputTokens: tokens,
        outputTokens: 0,
        cacheCreationInputTokens: 0,
        cacheReadInputTokens: 0,
        costUsd,
      }) as never;
    const rows = [row('dear', 10, 9), row('mid', 20, 5), row('cheap', 5_000, 1), row('unpriced', 90_000, null)];
    // dear and unpriced rank first in one view each, then mid and cheap (second in one view each), by cost
    expect(modelsByColor(rows)).toEqual(['dear', 'unpriced', 'mid', 'cheap']);
  });
});
