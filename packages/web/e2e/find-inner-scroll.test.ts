/**
 * Find in a session brings a match inside a long output into view. A call's output box scrolls by itself (long
 * outputs, wide lines): the jump centred the match's position in the timeline while the match lay clipped inside its
 * box, so the call itself scrolled 1,000 px out of view (../shared/wild 70d782f7: "Fix in Cursor" at x 2,680 in a Read
 * of 408 lines). The hit list closes on the way and Escape closes it. Skips plainly when Chromium or the built
 * dashboard is missing.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eMissing, openChromium, type ServedIndex, serveIndexOf } from './harness';

const missing = e2eMissing('e2e find in a long output');
const ID = 'f1d00000-0000-4000-8000-000000000001';
const CALL = 'toolu_find_inner_scroll_01';
const NEEDLE = 'walrus-marker';

/** A session whose one Bash call printed 300 lines, the needle on line 270 after 400 characters of a wide line. */
function transcript(): string {
  const base = { sessionId: ID, cwd: '/tmp/find', version: '2.1.20', isSidechain: false, userType: 'external' };
  const lines = Array.from({ length: 300 }, (_, i) =>
    i === 269 ? `${'x'.repeat(400)} ${NEEDLE} end` : `line ${i + 1} of the output`,
  );
  const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000Z`;
  return [
    {
      ...base,
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      timestamp: at(0),
      message: { role: 'user', content: 'Run it.' },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      timestamp: at(1),
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id: CALL, name: 'Bash', input: { command: 'cat big.txt' } }],
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    },
    {
      ...base,
      type: 'user',
      uuid: 'u2',
      parentUuid: 'a1',
      timestamp: at(2),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: CALL, content: lines.join('\n') }] },
    },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n');
}

describe.skipIf(missing !== undefined)('find in a long output in headless Chromium', () => {
  let home: string;
  let served: ServedIndex;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'agentdash-e2e-find-inner-home-'));
    const project = join(home, 'projects', '-tmp-find');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, `${ID}.jsonl`), `${transcript()}\n`);
    served = await serveIndexOf('agentdash-e2e-find-inner-', [home]);
    ({ context, page } = await openChromium({ viewport: { width: 1280, height: 800 }, problems }));
  });
  afterAll(async () => {
    await context?.close();
    await served?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  /** Where the needle is: 'shown' when its call's boxes and the window all show it. */
  const seen = () =>
    page.evaluate(
      ({ id, needle }) => {
        const call = document.getElementById(`call-${id}`);
        if (!call) return 'no call';
        const walker = document.createTreeWalker(call, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const at = (n.nodeValue ?? '').indexOf(needle);
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(n, at);
          range.setEnd(n, at + needle.length);
          const m = range.getBoundingClientRect();
          // every box around it shows it: the output's, the timeline's, the window
          for (let box = n.parentElement; box; box = box.parentElement) {
            const b = box.getBoundingClientRect();
            const clips = getComputedStyle(box).overflow !== 'visible';
            if (clips && (m.top < b.top || m.bottom > b.bottom || m.left < b.left || m.right > b.right))
              return `clipped by ${box.className || box.tagName}`;
          }
          return m.top >= 0 && m.bottom <= window.innerHeight && m.left >= 0 && m.right <= window.innerWidth
            ? 'shown'
            : 'outside the window';
        }
        return 'no match';
      },
      { id: CALL, needle: NEEDLE },
    );
  it('shows the match itself, inside its box and the window, and closes the hit list', async () => {
    await page.goto(new URL(`#/s/${ID}?find=${NEEDLE}`, served.server.url).toString());
    await page.waitForSelector('[data-testid=find-hit]', { timeout: 20_000 });
    await page.click('[data-testid=find-hit]');
    await expect.poll(seen, { timeout: 10_000 }).toBe('shown');
    expect(await page.locator('[data-testid=find-hits]').count()).toBe(0);
    // the count opens the list again; Escape in the find box closes it
    await page.click('[data-testid=find-count]');
    await page.waitForSelector('[data-testid=find-hits]');
    await page.focus('[data-testid=find-input]');
    await page.keyboard.press('Escape');
    expect(await page.locator('[data-testid=find-hits]').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('takes an Enter pressed as soon as the text is typed, before its hits are in', async () => {
    await page.goto(new URL(`#/s/${ID}`, served.server.url).toString());
    await page.waitForSelector('[data-testid=find-input]');
    await page.reload(); // the find of the test before is not in this page's address, nor kept
    await page.waitForSelector(`[id="call-${CALL}"]`, { timeout: 20_000 });
    expect(await seen()).not.toBe('shown');
    await page.fill('[data-testid=find-input]', NEEDLE);
    await page.keyboard.press('Enter');
    await expect.poll(seen, { timeout: 10_000 }).toBe('shown');
    expect(problems).toEqual([]);
  });
});
