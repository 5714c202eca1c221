/**
 * A search hit in a message, not a call (a review: `#/?q="script setup"`, then the hit of a prompt): its link names the
 * text to find and no call, and the session opened at its top, the hit found ("1", a list) but not shown until it was
 * chosen in the list. It goes to the first hit now, as a link naming a call goes to the call. Skips plainly when
 * Chromium or the built dashboard is missing.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eMissing, openChromium, type ServedIndex, serveIndexOf } from './harness';

const missing = e2eMissing('e2e a search link to a message');
const ID = 'f1d00000-0000-4000-8000-000000000002';
const NEEDLE = 'narwhal-phrase';

/** Forty exchanges; the needle in the 36th answer's text, far below the first screen. */
function transcript(): string {
  const base = { sessionId: ID, cwd: '/tmp/find', version: '2.1.20', isSidechain: false, userType: 'external' };
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
  const records: Record<string, unknown>[] = [];
  let parent: string | null = null;
  for (let i = 0; i < 40; i++) {
    const u = `u${i}`;
    const a = `a${i}`;
    records.push({
      ...base,
      type: 'user',
      uuid: u,
      parentUuid: parent,
      timestamp: at(2 * i),
      message: { role: 'user', content: `Question ${i + 1}: tell me more.` },
    });
    const text = i === 35 ? `Here it is: the ${NEEDLE} you asked for.` : `Answer ${i + 1}, a paragraph of text.`;
    records.push({
      ...base,
      type: 'assistant',
      uuid: a,
      parentUuid: u,
      timestamp: at(2 * i + 1),
      message: {
        id: `msg_${i}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text }],
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    });
    parent = a;
  }
  return records.map((r) => JSON.stringify(r)).join('\n');
}

describe.skipIf(missing !== undefined)('a search link to a message in headless Chromium', () => {
  let home: string;
  let served: ServedIndex;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'agentdash-e2e-find-link-home-'));
    const project = join(home, 'projects', '-tmp-find');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, `${ID}.jsonl`), `${transcript()}\n`);
    served = await serveIndexOf('agentdash-e2e-find-link-', [home]);
    ({ context, page } = await openChromium({ viewport: { width: 1280, height: 800 }, problems }));
  });
  afterAll(async () => {
    await context?.close();
    await served?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  /** Whether the needle's text is inside the window. */
  const shown = () =>
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
    await page.goto(new URL(`#/s/${ID}?find=${NEEDLE}`, served.server.url).toString());
    await expect.poll(shown, { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.locator('[data-testid=find-count]').textContent(), { timeout: 10_000 }).toBe('1 of 1');
    expect(problems).toEqual([]);
  });
});
