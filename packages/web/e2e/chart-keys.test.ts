/**
 * End-to-end, in headless Chromium over the bundled samples: the analytics charts a bar of which opens calls open
 * them from the keyboard too. The charts took the focus and their arrows moved the tooltip from bar to bar, but
 * "per project" and "error categories" opened their failing calls to a mouse only (the tools' charts had the table's
 * buttons beside them). Enter opens what the tooltip shows: a project's failing calls, a category's errors of both
 * kinds; Close gives the focus back to the chart.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eMissing, idle } from './harness';
import { samplesInChromium } from './samples-ui';

const missing = e2eMissing();

describe.skipIf(missing !== undefined)(
  "the analytics charts' bars open from the keyboard, in headless Chromium",
  () => {
    const ui = samplesInChromium('agentdash-e2e-chart-keys-');

    /** The chart `testid`'s surface focused, the tooltip moved `steps` bars on, and what the tooltip names. */
    async function pointAt(page: Page, testid: string, steps: number): Promise<string> {
      const chart = page.getByTestId(testid);
      const surface = chart.locator('svg.recharts-surface[tabindex="0"]').first();
      await surface.waitFor({ timeout: 15_000 });
      await idle(page);
      await surface.focus();
      for (let i = 0; i < steps; i++) await page.keyboard.press('ArrowRight');
      const label = chart.locator('.recharts-tooltip-label');
      await label.waitFor({ timeout: 5_000 });
      return (await label.textContent()) ?? '';
    }

    it("opens a project's failing calls with Enter, and Close gives the focus back", async () => {
      const page = await ui.page({ width: 1440, height: 900, scheme: 'dark' });
      await ui.visit(page, '#/analytics');
      const named = await pointAt(page, 'chart-projects', 1);
      expect(named).not.toBe('');
      await page.keyboard.press('Enter');
      const drill = page.getByTestId('drill');
      await drill.waitFor({ timeout: 5_000 });
      const title = (await drill.locator('h2').textContent()) ?? '';
      expect(title.startsWith('Failing calls in ')).toBe(true);
      // the project the tooltip named (its label may be cut on the axis; the tooltip names it whole)
      expect(title).toContain(named.replace(/^…/, ''));
      await page.waitForFunction(() => window.location.hash.startsWith('#/analytics?in='));
      await drill.getByRole('button', { name: 'Close' }).click();
      await drill.waitFor({ state: 'detached' });
      const back = await page.evaluate(() =>
        document.activeElement?.closest('[data-testid]')?.getAttribute('data-testid'),
      );
      expect(back).toBe('chart-projects');
      expect(ui.problems).toEqual([]);
    });

    it("opens a category's errors of both kinds with Enter, and Space as well", async () => {
      const page = await ui.page({ width: 1440, height: 900, scheme: 'light' });
      await ui.visit(page, '#/analytics');
      const category = await pointAt(page, 'chart-categories', 1);
      await page.keyboard.press('Enter');
      const drill = page.getByTestId('drill');
      await drill.waitFor({ timeout: 5_000 });
      expect(await drill.locator('h2').textContent()).toBe(`Errors: ${category}`);
      expect(await page.evaluate(() => window.location.hash)).toBe(`#/analytics?category=${category}`);
      await page.getByTestId('drill-row').first().waitFor({ timeout: 15_000 });
      await drill.getByRole('button', { name: 'Close' }).click();
      await drill.waitFor({ state: 'detached' });

      // the tools' error rate: Space on the bar the tooltip shows
      await pointAt(page, 'chart-error-rate', 1);
      await page.keyboard.press(' ');
      await drill.waitFor({ timeout: 5_000 });
      expect(await drill.locator('h2').textContent()).toMatch(/^Failing .+ calls$/);
      expect(ui.problems).toEqual([]);
    });
  },
);
