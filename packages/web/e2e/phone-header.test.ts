/**
 * End-to-end, in real Chromium over the bundled samples: on a phone, a session's header folds to its title once the
 * timeline is read into, and unfolds at its top. It took some 37 % of a phone's screen (crumbs, title, buttons,
 * three lines of figures) for as long as one read, the timeline scrolling under it. On a desk it stays whole.
 * Skips plainly when Chromium or the built dashboard is missing.
 */
import type { SessionsResponse } from '@agentdash/api';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eMissing } from './harness';
import { samplesInChromium } from './samples-ui';
import { shot } from './shots';

const missing = e2eMissing();

/** The header's height, and whether its figures and title can be seen. */
function header(page: Page): Promise<{ height: number; stats: boolean; title: boolean; folded: boolean }> {
  return page.getByTestId('session-head').evaluate((el) => {
    const seen = (sel: string) => {
      const part = el.querySelector(sel);
      return part !== null && part.getClientRects().length > 0;
    };
    return {
      height: el.getBoundingClientRect().height,
      stats: seen('[data-testid=session-stats]'),
      title: seen('[data-testid=session-title]'),
      folded: el.classList.contains('folded'),
    };
  });
}

/** Scroll the timeline to `top` px (as a reader's swipe does, with its scroll event) and let the page draw. */
async function scrollTimeline(page: Page, top: number): Promise<void> {
  await page.getByTestId('timeline-scroll').evaluate((el, to) => {
    el.scrollTop = to;
    el.dispatchEvent(new Event('scroll'));
  }, top);
  await page.waitForTimeout(150);
}

describe.skipIf(missing !== undefined)("a session's header on a phone, in headless Chromium", () => {
  const ui = samplesInChromium('agentdash-e2e-phone-head-');

  /** The sample session with the most tool calls: a timeline many screens long. */
  async function longest(): Promise<string> {
    const { sessions } = await ui.api<SessionsResponse>('/sessions?limit=1000');
    return sessions.reduce((a, b) => (b.toolCalls > a.toolCalls ? b : a)).id;
  }

  it('folds to its title once the timeline is read into, and unfolds at its top', async () => {
    const page = await ui.page({ width: 390, height: 844, scheme: 'light' });
    await ui.visit(page, `#/s/${encodeURIComponent(await longest())}`);
    await page.locator('[data-testid=event-row]').first().waitFor({ timeout: 15_000 });
    await page.getByTestId('session-stats').waitFor();
    const open = await header(page);
    expect(open).toMatchObject({ stats: true, title: true, folded: false });
    await scrollTimeline(page, 1500);
    const folded = await header(page);
    await shot(page, 'phone-header-folded');
    expect(folded).toMatchObject({ stats: false, title: true, folded: true });
    // the title's one line, not a third of the screen
    expect(folded.height).toBeLessThan(844 * 0.08);
    expect(folded.height).toBeLessThan(open.height / 3);
    await scrollTimeline(page, 0);
    expect(await header(page)).toMatchObject({ stats: true, folded: false });
  });

  it('stays whole on a desk, read into or not', async () => {
    const page = await ui.page({ width: 1440, height: 900 });
    await ui.visit(page, `#/s/${encodeURIComponent(await longest())}`);
    await page.locator('[data-testid=event-row]').first().waitFor({ timeout: 15_000 });
    await page.getByTestId('session-stats').waitFor();
    const open = await header(page);
    await scrollTimeline(page, 1500);
    const after = await header(page);
    expect(after).toMatchObject({ stats: true, title: true });
    expect(after.height).toBe(open.height);
  });

  it('logged no page errors', () => {
    expect(ui.problems).toEqual([]);
  });

  it('keeps the top bar to one row on a 360 px phone (its buttons went to a second row, 89 px of the screen)', async () => {
    const page = await ui.page({ width: 360, height: 780, scheme: 'light' });
    await ui.visit(page, '#/');
    const bar = page.locator('.topbar');
    await bar.locator('.nav a').first().waitFor({ timeout: 15_000 });
    const rows = await bar.evaluate((el) => {
      const tops = [...el.querySelectorAll('.brand, .nav a, .topbar-right > *')]
        .filter((e) => e.getClientRects().length > 0)
        .map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2));
      return { height: el.getBoundingClientRect().height, spread: Math.max(...tops) - Math.min(...tops) };
    });
    expect(rows.spread).toBeLessThanOrEqual(4);
    expect(rows.height).toBeLessThanOrEqual(60);
  });
});
