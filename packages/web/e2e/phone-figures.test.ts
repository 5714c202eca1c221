/**
 * End-to-end, in real Chromium over the bundled samples: every figure a page shows can be seen on a phone (390 px)
 * without scrolling sideways, and none runs over its cell on a desk. The session header's figures (tool calls,
 * errors, tokens and cost were out of view in a sideways scroller), the Usage page's tables (the By model table was
 * cut mid-number, the 5-hour blocks were wider than their card) and the Analytics drill panel (its Session link, the
 * way to open a call, was off the screen; its project paths ran under the When column on a desk). Screenshots of
 * each go to $AGENTDASH_SHOTS. Skips plainly when Chromium or the built dashboard is missing.
 */
import type { SessionsResponse } from '@agentdash/api';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eMissing, steady } from './harness';
import { eachPair, samplesInChromium } from './samples-ui';
import { shot } from './shots';

const missing = e2eMissing();

/**
 * The elements of `parts` that a person cannot see whole where they are: past the window's right edge, past the
 * edge of an ancestor that clips or scrolls (out of view until scrolled), or wider than their own box (their
 * content runs over the next cell). One line each, with its text.
 */
function unseen(parts: Locator): Promise<string[]> {
  return parts.evaluateAll((els) => {
    const out: string[] = [];
    const right = document.documentElement.clientWidth;
    for (const el of els) {
      const box = el.getBoundingClientRect();
      const name = `"${(el.textContent ?? '').trim().slice(0, 40)}"`;
      if (box.width === 0 && box.height === 0) {
        out.push(`${name} not shown`);
        continue;
      }
      if (box.left < -1 || box.right > right + 1) out.push(`${name} at ${box.left}..${box.right} of ${right}`);
      // (a line cut with an ellipsis on purpose, its whole text in its title, is not run over)
      const ellipsis = getComputedStyle(el).textOverflow === 'ellipsis';
      if (!ellipsis && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
        out.push(`${name} holds ${el.scrollWidth} px in ${el.clientWidth}`);
      }
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX === 'visible') continue;
        const edge = up.getBoundingClientRect();
        if (box.left < edge.left - 1 || box.right > edge.right + 1) {
          out.push(`${name} at ${box.left}..${box.right} in ${up.className} ${edge.left}..${edge.right}`);
          break;
        }
      }
    }
    return out;
  });
}

describe.skipIf(missing !== undefined)('every figure in view on a phone, in headless Chromium', () => {
  const ui = samplesInChromium('agentdash-e2e-phone-');
  const { visit, api, subagentErrorSession, problems } = ui;

  it("shows each of the session header's figures whole, without scrolling sideways", async () => {
    const { row } = await subagentErrorSession();
    const page = await ui.page();
    const found = await eachPair(page, async (size, scheme) => {
      await visit(page, `#/s/${encodeURIComponent(row.id)}`);
      await page.waitForSelector('[data-testid=event-row] [data-testid]');
      await page.getByTestId('session-cost').waitFor();
      await shot(page, `phone-figures-head-${size.name}-${scheme}`);
      // the time bar and the model and version pills are left to the desk
      const stats = page.locator('[data-testid=session-stats] > span:not(.stats-extra)');
      expect(await stats.count()).toBeGreaterThanOrEqual(7);
      const out = (await unseen(stats)).map((p) => `${size.name} ${scheme}: ${p}`);
      return out;
    });
    expect(found.flat()).toEqual([]);
  });

  it("shows the Usage page's tables whole in their cards, no number cut", async () => {
    const page = await ui.page();
    const found = await eachPair(page, async (size, scheme) => {
      await visit(page, '#/usage');
      const cells = page.locator(
        ['usage-models', 'usage-blocks', 'usage-top-sessions'].map((id) => `[data-testid=${id}] td`).join(', '),
      );
      await page.locator('[data-testid=usage-blocks] td').first().waitFor();
      await page.locator('[data-testid=usage-models] td').first().waitFor();
      await page.getByTestId('usage-models').scrollIntoViewIfNeeded();
      await shot(page, `phone-figures-usage-${size.name}-${scheme}`);
      await page.getByTestId('usage-blocks').scrollIntoViewIfNeeded();
      await shot(page, `phone-figures-blocks-${size.name}-${scheme}`);
      expect(await cells.count()).toBeGreaterThan(8);
      const out = (await unseen(cells)).map((p) => `${size.name} ${scheme}: ${p}`);
      return out;
    });
    expect(found.flat()).toEqual([]);
  });

  it("shows the drill panel's calls with their Session link in view, nothing running over its cell", async () => {
    const page = await ui.page();
    const found = await eachPair(page, async (size, scheme) => {
      await visit(page, '#/analytics');
      const bar = '[data-testid=chart-error-rate] .recharts-bar-rectangle';
      await page.locator(bar).first().waitFor({ timeout: 15_000 });
      await steady(page, bar);
      await page.locator(bar).first().click();
      const rows = page.getByTestId('drill-row');
      await rows.first().waitFor({ timeout: 10_000 });
      // The samples' project paths are short; a real one is not (it ran under the When and Duration columns).
      await rows.locator('td:nth-child(3) > div').evaluateAll((els) => {
        for (const el of els) el.textContent = '…/home/dev/clients/northwind/services/billing_reconciliation_worker';
      });
      await shot(page, `phone-figures-drill-${size.name}-${scheme}`);
      const out = [
        ...(await unseen(rows.locator('a'))),
        ...(await unseen(rows.locator('td'))),
        ...(await unseen(rows.locator('td > div'))),
      ].map((p) => `${size.name} ${scheme}: ${p}`);
      return out;
    });
    expect(found.flat()).toEqual([]);
  });

  it("keeps each assistant turn's model name and time on one line each (a name was broken at its last dash)", async () => {
    // the sample session with the longest model name: claude-sonnet-4-5-20250929 was cut as claude-sonnet-4-5- / 20250929
    const { sessions } = await api<SessionsResponse>('/sessions?limit=1000');
    const longest = (r: (typeof sessions)[number]) => Math.max(0, ...r.models.map((m) => m.length));
    const row = sessions.reduce((a, b) => (longest(b) > longest(a) ? b : a));
    const page = await ui.page({ width: 390, height: 844, scheme: 'light' });
    await visit(page, `#/s/${encodeURIComponent(row.id)}`);
    const labels = page.locator('[data-testid=assistant] > .ev-label:not(.ev-label-cont)');
    await labels.first().waitFor({ timeout: 15_000 });
    await shot(page, 'phone-figures-assistant-model');
    const broken = await labels.locator('.pill, .time').evaluateAll((els) =>
      els.flatMap((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        return lines > 1 ? [`"${el.textContent}" on ${lines} lines`] : [];
      }),
    );
    expect(await labels.count()).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });

  it('shows the by-project time table\'s active times and heads whole (a real one read "4 h 44…")', async () => {
    const page = await ui.page();
    const found = await eachPair(page, async (size, scheme) => {
      await visit(page, '#/analytics');
      const table = page.getByTestId('time-projects-table');
      await table.locator('td.tp-time').first().waitFor({ timeout: 15_000 });
      await table.scrollIntoViewIfNeeded();
      // The samples' projects took minutes; a real one's active time is as wide as formatDuration writes.
      await table.locator('td.tp-time').evaluateAll((els) => {
        for (const [n, el] of els.entries()) el.textContent = n % 2 === 0 ? '59 min 59 s' : '47 h 29 min';
      });
      await shot(page, `phone-figures-time-projects-${size.name}-${scheme}`);
      // (its project paths are cut with an ellipsis on purpose, the whole path in their title)
      const cut = await table
        .locator('td.tp-time, th')
        .evaluateAll((els) =>
          els
            .filter((el) => el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
            .map((el) => `"${el.textContent}" holds ${el.scrollWidth} px in ${el.clientWidth}`),
        );
      return cut.map((p) => `${size.name} ${scheme}: ${p}`);
    });
    expect(found.flat()).toEqual([]);
  });

  it('logged no page errors', () => {
    expect(problems).toEqual([]);
  });
});
