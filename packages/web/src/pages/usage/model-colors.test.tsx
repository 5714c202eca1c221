import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ChartTheme } from '../analytics/chart-theme';
import { DISTINCT_MODELS, modelColor, OTHER_MODELS_COLOR } from './model-colors';
import { DailyChart } from './UsageCharts';
import { chartModels, colorsOf, modelsInOrder } from './use-usage';

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
        state="loaded"
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

  it('colour, stack and list the models in one order (the metric), the cost view leaves unpriced ones out', () => {
    const row = (model: string, tokens: number, costUsd: number | null) =>
      ({
        model,
        responses: 1,
        inputTokens: tokens,
        outputTokens: 0,
        cacheCreationInputTokens: 0,
        cacheReadInputTokens: 0,
        costUsd,
      }) as never;
    // as the server gives them: costliest first, unpriced last; nine priced models and two unpriced of most tokens
    const rows = [
      ...Array.from({ length: 9 }, (_, i) => row(`priced-${i}`, 100 - i, 90 - i)),
      row('unpriced-a', 90_000, null),
      row('unpriced-b', 80_000, null),
    ];
    const cost = chartModels(rows, 'cost');
    expect(cost.drawn).toEqual(Array.from({ length: 9 }, (_, i) => `priced-${i}`));
    expect(cost.unpriced).toEqual(['unpriced-a', 'unpriced-b']);
    const colorOf = colorsOf(cost.drawn);
    // the seven costliest each have a colour of their own, in the legend's order; no unpriced model takes one
    expect(cost.drawn.slice(0, DISTINCT_MODELS).map(colorOf)).toEqual(
      Array.from({ length: DISTINCT_MODELS }, (_, i) => modelColor(i)),
    );
    expect(colorOf('priced-7')).toBe(OTHER_MODELS_COLOR);
    expect(colorOf('unpriced-a')).toBe(OTHER_MODELS_COLOR);
    const html = renderToStaticMarkup(
      <DailyChart
        theme={theme}
        metric="cost"
        daily={[{ date: '2026-11-01', 'priced-0': 5 }]}
        models={[...cost.drawn, ...cost.unpriced]}
        unpriced={cost.unpriced}
        colorOf={colorOf}
        state="loaded"
      />,
    );
    const legend = html.slice(html.indexOf('data-testid="usage-legend"'));
    for (let i = 0; i < DISTINCT_MODELS; i++) expect(legend).toContain(`background:${modelColor(i)}"></i>priced-${i}`);
    expect(legend).not.toContain('</i>unpriced-a');
    expect(legend).toContain('2 other models');
    expect(legend).toContain('2 models without a price, not drawn');
    // the tokens view: the most tokens first, the unpriced ones too, and the colours follow
    const tokens = chartModels(rows, 'tokens');
    expect(tokens.drawn.slice(0, 3)).toEqual(['unpriced-a', 'unpriced-b', 'priced-0']);
    expect(colorsOf(tokens.drawn)('unpriced-a')).toBe(modelColor(0));
  });
});
