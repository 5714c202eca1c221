/**
 * End-to-end: a tool's very long output (a 40 MB log froze the tab for minutes when "Show more" asked for it whole).
 * "Show more" shows each text up to 400,000 characters; "Show all" then asks for the rest, with a word that it may
 * be slow. The same in the dashboard as in an HTML export's viewer (static-source.ts cuts what it holds whole).
 */
import { join } from 'node:path';
import { basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eMissing, newPage, servedHome } from './harness';

const missing = e2eMissing();
const SID = '10e60000-0000-4000-8000-000000000001';
/** 20,000 lines of 60 characters: 1.2 million characters, its last line marked. */
const OUTPUT = `${Array.from({ length: 19_999 }, (_, i) => `line ${String(i).padStart(6, '0')} ${'x'.repeat(47)}`).join('\n')}\nTHE_LAST_LINE_OF_IT`;

describe.skipIf(missing !== undefined)("a tool's very long output, in headless Chromium", () => {
  const ui = servedHome('agentdash-e2e-long-output-', (home) => {
    const at = basesOf(SID);
    writeLines(join(home, 'projects', '-home-user-proj-logs', `${SID}.jsonl`), [
      prompt(at('u1', null, 1), 'Print the build log'),
      toolUse(at('a1', 'u1', 2), 'msg_long_1', 'toolu_long_1', 'Bash', { command: 'cat build.log' }),
      toolResult(at('r1', 'a1', 3), 'toolu_long_1', OUTPUT, false, { stdout: OUTPUT, stderr: '' }),
    ]);
    return undefined;
  });

  /** The session opened in `page`: its call's block, and the queries of each request for the call, in order. */
  async function openSession(page: Page): Promise<{ asked: string[]; block: Locator }> {
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/calls/toolu_long_1')) asked.push(new URL(r.url()).search);
    });
    await page.goto(new URL(`#/s/${SID}`, ui.served.server.url).toString());
    const block = page.locator('[data-testid=tool-block][data-call=toolu_long_1]');
    await block.waitFor();
    return { asked, block };
  }

  it('shows more in a step of 400,000 characters, then all when asked', async () => {
    const problems: string[] = [];
    const { context, page } = await newPage(ui.browser, { problems });
    try {
      const { asked, block } = await openSession(page);
      if ((await block.getAttribute('class'))?.includes(' open') !== true)
        await block.locator('[data-testid=tool-head]').click();
      const more = block.locator('[data-testid=show-more]');
      expect(await more.textContent()).toBe('Show more');
      const shown = () => block.locator('.tool-body').evaluate((body) => body.textContent ?? '');
      expect(await shown()).not.toContain('line 010000');
      await more.click();
      await block.locator('.truncated-note', { hasText: 'Each text is shown up to 400,000 characters.' }).waitFor();
      const step = await shown();
      // 400,000 characters of the output: line 6,666 is in them (at 399,960), the last line not
      expect([
        step.includes('line 006666'),
        step.includes('line 006667 x'),
        step.includes('THE_LAST_LINE_OF_IT'),
      ]).toEqual([true, false, false]);
      expect(await more.textContent()).toBe('Show all');
      await more.click();
      await block.locator('[data-testid=show-more]').waitFor({ state: 'detached' });
      expect(await shown()).toContain('THE_LAST_LINE_OF_IT');
      expect(asked).toEqual(['?chars=400000', '']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows more of the output for a find whose match lies past the cut, never all of it', async () => {
    const { context, page } = await newPage(ui.browser);
    try {
      const { asked, block } = await openSession(page);
      // line 5,000: past the page's 12,000 characters, within "Show more"'s 400,000
      await page.fill('[data-testid=find-input]', 'line 005000');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => block.locator('.tool-body').evaluate((body) => body.textContent?.includes('line 005000')), {
          timeout: 15_000,
        })
        .toBe(true);
      expect(asked).toEqual(['?chars=400000']);
      // a match past those 400,000 characters is left to "Show all", which the person presses
      await page.fill('[data-testid=find-input]', 'THE_LAST_LINE_OF_IT');
      await page.keyboard.press('Enter');
      await page.waitForTimeout(1_500);
      expect(asked).toEqual(['?chars=400000']);
    } finally {
      await context.close();
    }
  });

  it('presses "Show more" once for a find when its answer fails, and leaves it to the person', async () => {
    const { context, page } = await newPage(ui.browser);
    try {
      await page.route(/\/calls\/toolu_long_1\?chars=/, (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"error":"boom"}' }),
      );
      const { asked, block } = await openSession(page);
      await page.fill('[data-testid=find-input]', 'line 005000');
      await page.keyboard.press('Enter');
      await expect.poll(() => asked.length, { timeout: 15_000 }).toBe(1);
      // the button back, enabled, after the failed answer: pressed again 40 times before
      await block.locator('[data-testid=show-more]:not([disabled])').waitFor();
      await page.waitForTimeout(2_000);
      expect(asked).toEqual(['?chars=400000']);
      expect(await block.locator('[data-testid=show-more]').textContent()).toBe('Show more');
    } finally {
      await context.close();
    }
  });
});
