/**
 * End-to-end, over the bundled samples: the sessions that died on an API error (the recorded 2.1.330 "This request
 * is rejected", a 400, and "The server keeps failing", a 500 past its retry) said 0 errors, and "Has errors" left
 * them out. The list marks their failed request, "Has errors" keeps them, and a session's figures say how many
 * requests failed and how many attempts were retried (the 529s another session survived).
 */
import { describe, expect, it } from 'vitest';
import { e2eMissing } from './harness';
import { samplesInChromium } from './samples-ui';

const missing = e2eMissing();

describe.skipIf(missing !== undefined)('failed API requests, in headless Chromium', () => {
  const ui = samplesInChromium('agentdash-e2e-failed-requests-');

  it('marks them in the list, keeps them under "Has errors", and counts them in the session', async () => {
    const page = await ui.page({ width: 1440, height: 900 });
    await ui.visit(page, '#/?errors=1');
    await page.getByTestId('session-row').first().waitFor({ timeout: 15_000 });
    const rowOf = (id: string) => page.locator(`[data-testid=session-row][data-session^="${id}"]`);
    for (const id of ['698d1a6c', '4da1eb3d']) {
      expect(await rowOf(id).getByTestId('api-errors').textContent()).toBe('+1 API');
    }
    // the list's sums say them too
    expect(await page.getByTestId('sessions-summary').textContent()).toMatch(/· 2 failed requests/);
    // retried attempts alone are no error: the session that survived its 529s is not among them
    expect(await rowOf('30a34b12').count()).toBe(0);

    await ui.visit(page, '#/s/4da1eb3d');
    await page.getByTestId('failed-requests').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('failed-requests').textContent()).toBe('1 failed request +1 retried');
    // the error bar steps to it, and "Errors only" keeps its row: the API-error answer
    await page.waitForFunction(() => document.querySelector('[data-testid=error-position]')?.textContent === '1 error');
    await page.click('[data-testid=next-error]');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=error-position]')?.textContent === 'Error 1 of 1',
    );
    await page.check('[data-testid=errors-only]');
    await expect
      .poll(async () => page.locator('[data-testid=event-row]').allTextContents(), { timeout: 15_000 })
      .toEqual([expect.stringContaining('API Error: 500 Internal server error')]);
    await ui.visit(page, '#/s/30a34b12');
    await page.getByTestId('failed-requests').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('failed-requests').textContent()).toBe('0 failed requests +3 retried');
    expect(ui.problems).toEqual([]);
  });
});
