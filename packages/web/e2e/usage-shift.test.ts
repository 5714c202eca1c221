/**
 * End-to-end, in headless Chromium over the bundled samples and the Codex fixtures (two agents): the Usage page's
 * first screen does not jump when its data arrives. A review measured a layout shift of 0.79 at 1280 px: the price
 * notes and the By agent table, shown only once the data came, landed above the cost chart and pushed it down, and
 * the chart's "Loading…" was half its height. Every layout shift of the page's load is summed as Chromium reports it
 * (the Cumulative Layout Shift of web vitals); "good" is at most 0.1.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eMissing, idle, openChromium, type ServedIndex, serveIndexOf } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const samples = resolve(repoRoot, 'packages/cli/samples/claude-home');
const codexFixtures = resolve(repoRoot, 'packages/core/test/fixtures/codex');

const missing = e2eMissing();

describe.skipIf(missing !== undefined)("the Usage page's load, in headless Chromium", () => {
  let served: ServedIndex;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    served = await serveIndexOf('agentdash-e2e-usage-shift-', [samples, codexFixtures]);
    ({ context, page } = await openChromium({ viewport: { width: 1280, height: 900 }, problems }));
    await page.addInitScript(() => {
      const shifts: { value: number; sources: string[] }[] = [];
      (window as unknown as { shifts: typeof shifts }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as {
          value: number;
          hadRecentInput: boolean;
          sources: { node?: Node }[];
        }[]) {
          if (entry.hadRecentInput) continue;
          const sources = entry.sources.map((s) => {
            const el = s.node instanceof Element ? s.node : s.node?.parentElement;
            return el?.getAttribute('data-testid') ?? el?.className ?? '';
          });
          shifts.push({ value: entry.value, sources });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await served?.close();
  });

  it('moves no more than web vitals call good (0.1), the By agent table shown', async () => {
    await page.goto(new URL('#/usage', served.server.url).toString());
    await page.getByTestId('agent-usage').locator('tbody tr').nth(1).waitFor({ timeout: 15_000 });
    await page.locator('[data-testid=chart-usage-days] .recharts-bar-rectangle').first().waitFor({ timeout: 15_000 });
    await idle(page);
    await page.waitForTimeout(300);
    const shifts = await page.evaluate(
      () => (window as unknown as { shifts: { value: number; sources: string[] }[] }).shifts,
    );
    const total = shifts.reduce((sum, s) => sum + s.value, 0);
    expect(total, JSON.stringify(shifts)).toBeLessThanOrEqual(0.1);
    expect(problems).toEqual([]);
  });
});
