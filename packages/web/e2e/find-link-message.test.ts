/**
 * A search hit in a message, not a call (a review: `#/?q="script setup"`, then the hit of a prompt): its link names the
 * text to find and no call, and the session opened at its top, the hit found ("1", a list) but not shown until it was
 * chosen in the list. It goes to the first hit now, as a link naming a call goes to the call. Skips plainly when
 * Chromium or the built dashboard is missing.
 */
import { join } from 'node:path';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eMissing, newPage, servedHome } from './harness';

const missing = e2eMissing('e2e a search link to a message');
const ID = 'f1d00000-0000-4000-8000-000000000002';
const NEEDLE = 'narwhal-phrase';

/** Forty exchanges; the needle in the 36th answer's text, far below the first screen. */
function writeSession(home: string): void {
  const at = basesOf(ID);
  const lines: string[] = [];
  for (let i = 0; i < 40; i++) {
    lines.push(prompt(at(`u${i}`, i === 0 ? null : `a${i - 1}`, 2 * i), `Question ${i + 1}: tell me more.`));
    const text = i === 35 ? `Here it is: the ${NEEDLE} you asked for.` : `Answer ${i + 1}, a paragraph of text.`;
    lines.push(assistantText(at(`a${i}`, `u${i}`, 2 * i + 1), `msg_${i}`, text));
  }
  writeLines(join(home, 'projects', '-tmp-find', `${ID}.jsonl`), lines);
}

describe.skipIf(missing !== undefined)('a search link to a message in headless Chromium', () => {
  const ui = servedHome('agentdash-e2e-find-link-', (home) => {
    writeSession(home);
    return [home];
  });

  /** Whether the needle's text is inside the window. */
  const shown = (page: Page) =>
    page.evaluate((needle) => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = (n.nodeValue ?? '').indexOf(needle);
        if (at < 0 || n.parentElement?.closest('input, [data-testid=find-hits]')) continue;
        const range = document.createRange();
        range.setStart(n, at);
        range.setEnd(n, at + needle.length);
        const m = range.getBoundingClientRect();
        return m.height > 0 && m.top >= 0 && m.bottom <= window.innerHeight;
      }
      return false;
    }, NEEDLE);

  it('opens at the first hit, counted as the current one', async () => {
    const problems: string[] = [];
    const { context, page } = await newPage(ui.browser, { problems, viewport: { width: 1280, height: 800 } });
    await page.goto(new URL(`#/s/${ID}?find=${NEEDLE}`, ui.served.server.url).toString());
    await expect.poll(() => shown(page), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.locator('[data-testid=find-count]').textContent(), { timeout: 10_000 }).toBe('1 of 1');
    expect(problems).toEqual([]);
    await context.close();
  });
});
