/**
 * End-to-end: the value axis of the column charts (Analytics' calls over time and durations, Usage's days, the time
 * by day) labels its top line on that line. With no room above the chart's top line, its label was pushed down
 * beside the empty space under it ("1800" 17 px below its line, the steps 43 px then 34 px: the dashboard review).
 */
import { describe, expect, it } from 'vitest';
import { e2eMissing } from './harness';
import { samplesInChromium } from './samples-ui';

const missing = e2eMissing();

describe.skipIf(missing !== undefined)('the charts’ value axes in headless Chromium', () => {
  const ui = samplesInChromium('agentdash-e2e-axis-top-');

  it('put the top label on its line', async () => {
    const page = await ui.page({ scheme: 'light' });
    const off: string[] = [];
    for (const [hash, card] of [
      ['#/analytics', 'chart-time'],
      ['#/analytics', 'chart-durations'],
      ['#/analytics', 'analytics-time-days'],
      ['#/usage', 'chart-usage-days'],
    ] as const) {
      await ui.visit(page, hash);
      const chart = page.getByTestId(card);
      await chart
        .locator('.recharts-cartesian-grid-horizontal line')
        .first()
        .waitFor({ state: 'attached', timeout: 15_000 });
      const { label, line } = await chart.evaluate((el) => {
        const tops = [...el.querySelectorAll('.recharts-cartesian-grid-horizontal line')].map(
          (l) => l.getBoundingClientRect().top,
        );
        // the value axis's labels: those left of the plot (the category axis's are under it)
        const plotLeft = Math.min(
          ...[...el.querySelectorAll('.recharts-cartesian-grid-horizontal line')].map(
            (l) => l.getBoundingClientRect().left,
          ),
        );
        const labels = [...el.querySelectorAll('.recharts-cartesian-axis-tick-value')]
          .map((t) => t.getBoundingClientRect())
          .filter((b) => b.right <= plotLeft + 1)
          .map((b) => b.top + b.height / 2);
        return { label: Math.min(...labels), line: Math.min(...tops) };
      });
      if (Math.abs(label - line) > 3)
        off.push(`${card}: top label at ${label.toFixed(0)}, its line at ${line.toFixed(0)}`);
    }
    expect(off).toEqual([]);
    expect(ui.problems).toEqual([]);
  });
});
