/**
 * End-to-end, over the bundled samples on a phone: a file tool's header keeps its file name. Its path was cut at its
 * end like every summary ("Read /home/…"), so every Read of a subagent's session looked the same; a file tool's path
 * is cut at its start now ("…/subagents/data.txt"), and a command still at its end (its program first).
 */
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eMissing } from './harness';
import { samplesInChromium } from './samples-ui';
import { shot } from './shots';

const missing = e2eMissing();

interface Cut {
  readonly tool: string;
  readonly length: number;
  /** The offsets in its text of the characters drawn just inside its left and right edges. */
  readonly left: number;
  readonly right: number;
}

/** A summary in view, when it is cut: its tool, its length, and which of its characters show at each edge. */
function cutOf(head: Locator): Promise<Cut | undefined> {
  return head.evaluate((el) => {
    if (el.scrollWidth <= el.clientWidth + 1) return undefined;
    const box = el.getBoundingClientRect();
    const y = box.top + box.height / 2;
    const at = (x: number) => {
      const caret = document.caretRangeFromPoint(x, y);
      return caret && el.contains(caret.startContainer) ? caret.startOffset : -1;
    };
    return {
      tool: el.closest('[data-tool]')?.getAttribute('data-tool') ?? '',
      length: el.textContent?.length ?? 0,
      // past the ellipsis at either edge
      left: at(box.left + 14),
      right: at(box.right - 2),
    };
  });
}

describe.skipIf(missing !== undefined)('file paths in tool headers on a phone, in headless Chromium', () => {
  const ui = samplesInChromium('agentdash-e2e-phone-paths-');

  it("keeps a file tool's file name and a command's program", async () => {
    const page = await ui.page({ width: 390, height: 844, scheme: 'light' });
    const cut: Cut[] = [];
    for (const id of ['410c10d6', '0097a0c6', '5546c9dc']) {
      await ui.visit(page, `#/s/${id}`);
      await page.locator('[data-testid=tool-block]').first().waitFor({ timeout: 15_000 });
      // each header brought into view in turn (a point off the screen finds no character), read there
      for (const head of await page.locator('[data-testid=tool-summary]').all()) {
        await head.scrollIntoViewIfNeeded();
        const found = await cutOf(head);
        if (found) cut.push(found);
      }
      if (id === '410c10d6') await shot(page, 'phone-paths');
    }
    const files = cut.filter((c) => ['Read', 'Write', 'Edit', 'MultiEdit'].includes(c.tool));
    const commands = cut.filter((c) => c.tool === 'Bash');
    expect(files.length).toBeGreaterThan(3);
    expect(commands.length).toBeGreaterThan(0);
    // the path's end at the right edge, its start hidden
    for (const f of files) expect([f.tool, f.length - f.right <= 1, f.left > 2]).toEqual([f.tool, true, true]);
    // the command's start at the left edge, its end hidden
    for (const c of commands) expect([c.left <= 2, c.length - c.right > 2]).toEqual([true, true]);
    expect(ui.problems).toEqual([]);
  });

  it("keeps a Write's file name and its count of lines whole at 360 px (its head showed '… lines)' alone)", async () => {
    const page = await ui.page({ width: 360, height: 780, scheme: 'dark' });
    // the files scenario (2.1.330), which writes files
    await ui.visit(page, '#/s/0097a0c6');
    const writes = page.locator('[data-testid=tool-block][data-tool=Write] [data-testid=tool-head]');
    await page.locator('[data-testid=tool-block]').first().waitFor({ timeout: 15_000 });
    // the timeline draws the rows in view: read down it to the first Write
    for (let i = 0; i < 40 && (await writes.count()) === 0; i++) {
      await page.getByTestId('timeline-scroll').evaluate((el) => el.scrollBy(0, el.clientHeight * 0.8));
      await page.waitForTimeout(100);
    }
    const heads = await writes.evaluateAll((els) =>
      els.map((head) => {
        const path = head.querySelector('[data-testid=tool-summary]');
        const tail = head.querySelector('.tool-summary-tail');
        const box = head.getBoundingClientRect();
        const tailBox = tail?.getBoundingClientRect();
        return {
          path: path?.textContent ?? '',
          tail: tail?.textContent ?? '',
          tailWhole: tail !== null && tail.scrollWidth <= tail.clientWidth + 1 && (tailBox?.right ?? 0) <= box.right,
        };
      }),
    );
    expect(heads.length).toBeGreaterThan(0);
    for (const h of heads) expect(h).toEqual({ path: expect.not.stringContaining('('), tail: h.tail, tailWhole: true });
    for (const h of heads) expect(h.tail).toMatch(/^ \(\d+ lines?\)$/);
  });
});
