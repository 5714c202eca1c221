/**
 * End-to-end: a tab left open across an upgrade asks for a page's old chunk, which the server no longer has (404).
 * The page says so with a way on (Reload, back to the sessions), the bar above stays, and moving to another page
 * works; before, the whole window went blank.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChromium, e2eMissing, type ServedIndex, serveIndexOf } from './harness';
import { shot } from './shots';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');

const missing = e2eMissing();

describe.skipIf(missing !== undefined)('a page whose code cannot be fetched, in headless Chromium', () => {
  let served: ServedIndex;
  let browser: Browser;

  beforeAll(async () => {
    served = await serveIndexOf('agentdash-e2e-page-error-', [samples]);
    browser = await connectChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('says it could not be loaded, keeps the bar, and the other pages still open', async () => {
    const { server } = served;
    // What the server answers for a chunk it does not have: the tab's Analytics chunk is an old build's.
    const asked = await fetch(new URL('assets/AnalyticsPage-0ld0ld0l.js', server.url));
    expect(asked.status).toBe(404);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.route(/\/assets\/AnalyticsPage-[^/]*\.js$/, (route) =>
      route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }),
    );
    await page.goto(new URL('#/', server.url).toString());
    await page.waitForSelector('[data-testid=session-row]', { timeout: 30_000 });
    await page.locator('nav a', { hasText: 'Analytics' }).click();
    const error = page.locator('[data-testid=page-error]');
    await error.waitFor({ timeout: 15_000 });
    expect(await error.textContent()).toContain('This page could not be loaded');
    expect(await error.textContent()).toContain('updated or restarted since this tab was opened');
    expect(await page.locator('[data-testid=page-error-reload]').isVisible()).toBe(true);
    expect(await page.locator('nav a', { hasText: 'Usage' }).isVisible()).toBe(true);
    await shot(page, 'ui-page-error');
    // Another page opens, and the failure is not shown over it.
    await page.locator('nav a', { hasText: 'Sessions' }).click();
    await page.waitForSelector('[data-testid=session-row]', { timeout: 15_000 });
    expect(await error.count()).toBe(0);
    await context.close();
  });

  it('fetches the page again on Retry once the server answers (it was restarting), without a reload', async () => {
    const { server } = served;
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    // The Analytics chunk cannot be fetched while the server is down (restarting), then it comes.
    let down = true;
    let asked = 0;
    await page.route(/\/assets\/AnalyticsPage-[^/]*\.js$/, (route) => {
      asked += 1;
      return down ? route.abort('connectionrefused') : route.continue();
    });
    await page.goto(new URL('#/', server.url).toString());
    await page.waitForSelector('[data-testid=session-row]', { timeout: 30_000 });
    const error = page.locator('[data-testid=page-error]');
    await page.locator('nav a', { hasText: 'Analytics' }).click();
    await error.waitFor({ timeout: 15_000 });
    // Another visit asks again (still down).
    const before = asked;
    await page.locator('nav a', { hasText: 'Sessions' }).click();
    await page.waitForSelector('[data-testid=session-row]', { timeout: 15_000 });
    await page.locator('nav a', { hasText: 'Analytics' }).click();
    await error.waitFor({ timeout: 15_000 });
    expect(asked).toBeGreaterThan(before);
    down = false;
    // a mark a reload would lose
    await page.evaluate(() => Object.assign(window, { stillThisPage: true }));
    await page.locator('[data-testid=page-error-retry]').click();
    await page.waitForSelector('[data-testid=analytics]', { timeout: 15_000 });
    expect(await error.count()).toBe(0);
    expect(await page.evaluate(() => (window as { stillThisPage?: boolean }).stillThisPage)).toBe(true);
    await context.close();
  });
});
