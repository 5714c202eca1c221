/**
 * End-to-end, over the bundled samples: a link to a call the session does not hold (another session's, or one gone)
 * opened the session at its top with no word, and after a link to a call it does hold, the earlier call stayed marked
 * under an address naming another. The page says the call is not there now, and lets the old mark go.
 */
import { describe, expect, it } from 'vitest';
import { e2eMissing } from './harness';
import { samplesInChromium } from './samples-ui';

const missing = e2eMissing();

describe.skipIf(missing !== undefined)('a link to a call the session does not hold, in headless Chromium', () => {
  const ui = samplesInChromium('agentdash-e2e-call-missing-');

  it('says so on a fresh load, and after a call it does hold lets that mark go', async () => {
    const page = await ui.page({ width: 1280, height: 900, scheme: 'light' });
    await ui.visit(page, '#/s/5546c9dc?call=toolu_nope');
    await page.getByTestId('call-missing').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('call-missing').textContent()).toMatch(
      /^The linked call toolu_nope is not in this session \(call not found\)/,
    );

    const real = await page.locator('[data-testid=tool-block]').nth(3).getAttribute('data-call');
    await ui.visit(page, `#/s/5546c9dc?call=${real}`);
    await page.locator(`[data-call="${real}"].highlight-flash`).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('call-missing').count()).toBe(0);
    // the address changed in place (a link followed within the page), to a call the session does not hold
    await page.evaluate(() => {
      window.location.hash = '#/s/5546c9dc?call=toolu_gone';
    });
    await page.getByTestId('call-missing').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('call-missing').textContent()).toContain('toolu_gone');
    expect(await page.locator('.highlight-flash').count()).toBe(0);
    expect(ui.problems.filter((p) => !p.includes('404'))).toEqual([]);
  });
});
