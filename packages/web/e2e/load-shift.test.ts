/**
 * End-to-end, in headless Chromium over the bundled samples and the Codex fixtures (two agents): a page's first
 * screen does not jump when its data arrives. A review measured layout shifts of 0.79 on Usage at 1280 px (the price
 * notes and the By agent table, shown only once the data came, landed above the cost chart and pushed it down; the
 * chart's "Loading…" was half its height) and 0.74 on the sessions list (its filters grew with their options and
 * the date range went to a row of its own, moving the table). Every layout shift of a page's load is summed as
 * Chromium reports it (the Cumulative Layout Shift of web vitals); "good" is at most 0.1.
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

/** Run in the page before its own scripts: Chromium's layout shifts kept in `window.shifts`, with what moved. */
const OBSERVE_SHIFTS = () => {
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
};

describe.skipIf(missing !== undefined)("a page's load, in headless Chromium", () => {
  let served: ServedIndex;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    served = await serveIndexOf('agentdash-e2e-load-shift-', [samples, codexFixtures]);
  }, 120_000);

  afterAll(async () => {
    await served?.close();
  });

  /** The layout shifts of `hash`'s load until `ready` is drawn, summed; each with what moved, to say why. */
  async function shiftsOf(hash: string, ready: () => Promise<void>): Promise<{ total: number; why: string }> {
    // a page of its own from the start: the shifts observed are those of this load alone
    let context: BrowserContext | undefined;
    try {
      ({ context, page } = await openChromium({ viewport: { width: 1280, height: 900 }, problems }));
      await context.addInitScript(OBSERVE_SHIFTS);
      await page.goto(new URL(hash, served.server.url).toString());
      await ready();
      await idle(page);
      await page.waitForTimeout(300);
      const shifts = await page.evaluate(
        () => (window as unknown as { shifts: { value: number; sources: string[] }[] }).shifts,
      );
      return { total: shifts.reduce((sum, s) => sum + s.value, 0), why: JSON.stringify(shifts) };
    } finally {
      await context?.close();
    }
  }

  it("moves Usage's first screen no more than web vitals call good (0.1), the By agent table shown", async () => {
    const { total, why } = await shiftsOf('#/usage', async () => {
      await page.getByTestId('agent-usage').locator('tbody tr').nth(1).waitFor({ timeout: 15_000 });
      await page.locator('[data-testid=chart-usage-days] .recharts-bar-rectangle').first().waitFor({ timeout: 15_000 });
    });
    expect(total, why).toBeLessThanOrEqual(0.1);
    expect(problems).toEqual([]);
  });

  it("moves the sessions list's first screen no more than that, its filters' options come", async () => {
    const { total, why } = await shiftsOf('#/', async () => {
      await page.getByTestId('session-row').nth(3).waitFor({ timeout: 15_000 });
      await page.locator('[data-testid=filter-project] option').nth(1).waitFor({ state: 'attached', timeout: 15_000 });
    });
    expect(total, why).toBeLessThanOrEqual(0.1);
    expect(problems).toEqual([]);
  });
});
