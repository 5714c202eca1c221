/**
 * End-to-end, in headless Chromium over the bundled samples: a table on a 360 px phone. A review with a real home
 * found Analytics' Durations per tool 854 px wide in a 330 px card with only the tools' names in view (a merged
 * tool's name, `exec_command (shell, …)`, held its column), and the Usage tables' costs (`$162.84 + ?`) out of their
 * cards. A table that still cannot fit scrolls inside its card with the names kept in view; a cost's `+ ?` goes to a
 * line of its own; a short name is never broken inside.
 */
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eMissing, idle } from './harness';
import { samplesInChromium } from './samples-ui';
import { shot } from './shots';

const missing = e2eMissing();
const LONG_TOOL = 'exec_command (shell, shell<|channel|>, shell_command)';

/** The cells of `cells` that a person cannot see whole: past their card's edges. */
function outOfCard(cells: Locator): Promise<string[]> {
  return cells.evaluateAll((els) =>
    els.flatMap((el) => {
      const card = el.closest('.card');
      if (card === null) return [`"${el.textContent}" in no card`];
      const box = el.getBoundingClientRect();
      const edge = card.getBoundingClientRect();
      return box.left < edge.left - 1 || box.right > edge.right + 1
        ? [`"${el.textContent?.trim()}" at ${box.left}..${box.right} of ${edge.left}..${edge.right}`]
        : [];
    }),
  );
}

describe.skipIf(missing !== undefined)('tables on a 360 px phone, in headless Chromium', () => {
  const ui = samplesInChromium('agentdash-e2e-phone-tables-');

  it("keeps Analytics' tool names in view, whole words whole, while the numbers scroll inside the card", async () => {
    const page = await ui.page({ width: 360, height: 780, scheme: 'light' });
    await ui.visit(page, '#/analytics');
    // found by its heading (not a test id the old page lacked)
    const table = page.locator('.card', { has: page.getByRole('heading', { name: 'Durations per tool' }) });
    await table.locator('tbody tr').first().waitFor({ timeout: 15_000 });
    await idle(page);
    // a real home's merged tool (the samples' names are short)
    await table.locator('tbody tr:first-child td:first-child').evaluate((td, name) => {
      td.textContent = name;
    }, LONG_TOOL);
    const names = table.locator('tbody td:first-child');
    expect(await outOfCard(names)).toEqual([]);
    // a name of one short word is on one line
    const broken = await names.evaluateAll((els) =>
      els.flatMap((el) => {
        if (/\s/.test(el.textContent ?? '') || (el.textContent ?? '').length > 12) return [];
        const range = document.createRange();
        range.selectNodeContents(el);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        return lines > 1 ? [`${el.textContent} on ${lines} lines`] : [];
      }),
    );
    expect(broken).toEqual([]);
    // the numbers, scrolled to: every one in view with the names still there
    const wide = await table.evaluate((card) => card.scrollWidth > card.clientWidth);
    if (wide) await table.evaluate((card) => card.scrollTo({ left: card.scrollWidth }));
    await shot(page, 'phone-tables-tools-end');
    expect(await outOfCard(names)).toEqual([]);
    const lastColumn = await table
      .locator('tbody td:last-child')
      .evaluateAll((els) => els.filter((el) => el.getBoundingClientRect().right <= window.innerWidth + 1).length);
    expect(lastColumn).toBe(await table.locator('tbody tr').count());
    expect(ui.problems).toEqual([]);
  });

  it("keeps every Usage table's cost in its card, a `+ ?` on a line of its own when it must", async () => {
    const page = await ui.page({ width: 360, height: 780, scheme: 'dark' });
    await ui.visit(page, '#/usage');
    await page.locator('[data-testid=usage-blocks] td').first().waitFor({ timeout: 15_000 });
    await idle(page);
    const tables = ['usage-models', 'usage-blocks', 'usage-top-sessions'];
    // a real home's costs: large, with prices missing for a part (the samples' are small and priced)
    await page.locator(tables.map((id) => `[data-testid=${id}] td.cost`).join(', ')).evaluateAll((els) => {
      for (const el of els) el.textContent = (el.textContent ?? '').replace(/^\$[\d.]+.*$/, () => '$162.84 +\u00a0?');
    });
    await shot(page, 'phone-tables-usage');
    const cells = tables.map((id) => `[data-testid=${id}] td`).join(', ');
    expect(await page.locator(cells).count()).toBeGreaterThan(8);
    expect(await outOfCard(page.locator(cells))).toEqual([]);
  });
});
