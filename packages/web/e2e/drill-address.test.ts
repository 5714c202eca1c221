/**
 * End-to-end, over the bundled samples: an analytics drill-down is in the address. Clicking a tool's name did nothing
 * (only its bar opened the failing calls), and an open drill-down could be neither linked to nor closed with Back.
 * A tool's name opens it now, the address names it (a link opens it), and Back closes it.
 */
import { describe, expect, it } from 'vitest';
import { e2eMissing, idle } from './harness';
import { samplesInChromium } from './samples-ui';

const missing = e2eMissing();

describe.skipIf(missing !== undefined)('an analytics drill-down in the address, in headless Chromium', () => {
  const ui = samplesInChromium('agentdash-e2e-drill-address-');

  it("opens from a tool's name, is linked by the address, and closes with Back", async () => {
    const page = await ui.page({ width: 1440, height: 900, scheme: 'light' });
    await ui.visit(page, '#/analytics');
    const label = page
      .getByTestId('chart-error-rate')
      .locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-label')
      .filter({ hasText: /^Bash/ });
    await label.waitFor({ timeout: 15_000 });
    // the chart laid out at its size (a click while it still resizes lands beside the name)
    await page.getByTestId('rate-bar-Bash').waitFor();
    await idle(page);
    await label.click();
    const drill = page.getByTestId('drill');
    await drill.waitFor();
    expect(await drill.locator('h2').textContent()).toBe('Failing Bash calls');
    await page.waitForFunction(() => window.location.hash === '#/analytics?tool=Bash');
    await page.getByTestId('drill-row').first().waitFor({ timeout: 15_000 });

    await page.goBack();
    await drill.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => window.location.hash)).toBe('#/analytics');

    // the address alone opens it, and its Close lets it go from the address
    await ui.visit(page, '#/analytics?category=exit-code&severity=error');
    await drill.waitFor({ timeout: 15_000 });
    expect(await drill.locator('h2').textContent()).toBe('Errors: exit-code (error)');
    await drill.getByRole('button', { name: 'Close' }).click();
    await drill.waitFor({ state: 'detached' });
    await page.waitForFunction(() => window.location.hash === '#/analytics');
    expect(ui.problems).toEqual([]);
  });
});
