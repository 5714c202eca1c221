import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ChartTheme } from '../analytics/chart-theme';
import { DISTINCT_MODELS, modelColor, OTHER_MODELS_COLOR } from './model-colors';
import { DailyChart } from './UsageCharts';

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
      <DailyChart theme={theme} metric="tokens" daily={[{ date: '2026-11-01', 'model-0': 5 }]} models={models} />,
    );
    const legend = html.slice(html.indexOf('data-testid="usage-legend"'));
    expect(legend.match(/<li/g)).toHaveLength(DISTINCT_MODELS + 1);
    expect(legend).toContain('3 other models');
    expect(legend).toContain('title="model-7, model-8, model-9"');
  });
});
