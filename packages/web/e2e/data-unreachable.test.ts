/**
 * End-to-end: Analytics and Usage opened while their data cannot be had (the server stopped, or restarting). The
 * pages say it could not be loaded, and their charts and cards say nothing of the data they do not have: before,
 * under "Could not load statistics", the error charts read "No errors.", the tools used "0", and Usage's charts
 * "No usage." and its 5-hour block "no active block".
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChromium, e2eMissing, newPage, type ServedIndex, serveIndexOf } from './harness';
import { shot } from './shots';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');

const missing = e2eMissing();

/** The text of each element of `selector`, in order. */
const textsOf = (page: Page, selector: string) => page.locator(selector).allTextContents();

describe.skipIf(missing !== undefined)('pages whose data cannot be had, in headless Chromium', () => {
  let served: ServedIndex;
  let browser: Browser;

  beforeAll(async () => {
    served = await serveIndexOf('agentdash-e2e-unreachable-', [samples]);
    browser = await connectChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('Analytics says its statistics could not be loaded, and no chart says "No errors."', async () => {
    const { context, page } = await newPage(browser);
    await page.route(/\/api\/stats(\?|$)/, (route) => route.abort('connectionrefused'));
    await page.goto(new URL('#/analytics', served.server.url).toString());
    await page.getByText('Could not load statistics').waitFor({ timeout: 15_000 });
    await shot(page, 'ui-analytics-unreachable');
    expect(await textsOf(page, '[data-testid=chart-error-rate] .empty')).toEqual(['Not loaded.']);
    expect(await textsOf(page, '[data-testid=chart-categories] .empty')).toEqual(['Not loaded.']);
    expect(await textsOf(page, '.cards .metric-value')).toEqual(['—', '—', '—', '—']);
    await context.close();
  });

  it('Usage says its usage could not be loaded, and no chart nor card says there is none', async () => {
    const { context, page } = await newPage(browser);
    await page.route(/\/api\/usage(\?|$)/, (route) => route.abort('connectionrefused'));
    await page.goto(new URL('#/usage', served.server.url).toString());
    await page.getByText('Could not load usage').waitFor({ timeout: 15_000 });
    await shot(page, 'ui-usage-unreachable');
    expect(await textsOf(page, '[data-testid=chart-usage-days] .empty')).toEqual(['Not loaded.']);
    expect(await textsOf(page, '[data-testid=chart-usage-projects] .empty')).toEqual(['Not loaded.']);
    expect(await textsOf(page, '.cards .metric-note')).toEqual(['— API responses', '', '', '']);
    await context.close();
  });
});
