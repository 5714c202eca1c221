/**
 * End-to-end: a live refresh that fails (here the index was rebuilt by another version of AgentDash meanwhile) is
 * said in a strip under the top bar on every page, the page kept as it was, until a refresh works again. Before, only
 * the sessions list said it: Analytics, Usage and a session showed the old figures without a word.
 */
import { appendFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markDerivedVersion } from '@agentdash/testing/other-build';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChromium, e2eMissing, newPage, type ServedIndex, serveIndexOf } from './harness';
import { lowContrast } from './samples-ui';
import { shot } from './shots';

const missing = e2eMissing();
const id = '0c97beba-0000-4000-8000-0000000000f1';

describe.skipIf(missing !== undefined)('an index that cannot be brought up to date, in headless Chromium', () => {
  let home: string;
  let file: string;
  let served: ServedIndex;
  let browser: Browser;
  let answers = 0;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'agentdash-e2e-index-error-home-'));
    file = join(home, 'projects', '-home-user-proj-demo', `${id}.jsonl`);
    const base = basesOf(id);
    writeLines(file, [
      prompt(base('u0', null, 0), 'Say hello.'),
      assistantText(base('a0', 'u0', 1), 'msg_0', 'Hello.'),
    ]);
    // no worker threads: one of this build opening the index after the other version's rebuild would rebuild it
    served = await serveIndexOf('agentdash-e2e-index-error-', [home], { sessionWorker: false });
    browser = await connectChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  /** Append an answer to the session, again every 5 s (a file written a moment ago is held back until it settles). */
  async function appendUntil(done: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 12; i++) {
      answers += 1;
      appendFileSync(file, `${assistantText(basesOf(id)(`a${answers}`, 'a0', 2), `msg_${answers}`, 'Again.')}\n`);
      for (let t = 0; t < 25; t++) {
        if (await done()) return;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    throw new Error('the index error never changed as asked');
  }

  const strip = (page: Page) => page.getByTestId('index-error');

  it('says why under the top bar on Analytics, Usage and a session, and goes once a refresh works', async () => {
    const { context, page } = await newPage(browser);
    const at = (hash: string) => new URL(hash, served.server.url).toString();
    await page.goto(at('#/analytics'));
    await page.locator('.cards .metric-value').first().waitFor({ timeout: 15_000 });
    expect(await strip(page).count()).toBe(0);

    markDerivedVersion(served.index.dbPath);
    await appendUntil(async () => (await strip(page).count()) > 0);
    const said =
      /^The index is not up to date: .*rebuilt by another version of AgentDash.*\. What this page shows is what it held before\.$/;
    expect(await strip(page).textContent()).toMatch(said);
    expect(await strip(page).getAttribute('role')).toBe('alert');
    // the strip sits under the top bar, and the page's own content below it
    const bar = await page.locator('.topbar').boundingBox();
    const box = await strip(page).boundingBox();
    expect(box && bar ? box.y : -1).toBeGreaterThanOrEqual((bar?.y ?? 0) + (bar?.height ?? 0) - 1);
    // readable in both themes (WCAG AA), as every other text of the page, once the charts have taken the new theme's
    // colours (they re-read them after the switch: a loaded machine reads the old ones in between)
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => lowContrast(page), { message: scheme, timeout: 15_000 }).toEqual([]);
    }
    await shot(page, 'ui-index-error-analytics');
    for (const hash of ['#/usage', `#/s/${id}`, '#/']) {
      await page.goto(at(hash));
      await strip(page).waitFor({ timeout: 15_000 });
      expect(await strip(page).textContent(), hash).toMatch(said);
    }
    await page.getByTestId('session-row').first().waitFor({ timeout: 15_000 });
    await shot(page, 'ui-index-error-sessions');

    markDerivedVersion(served.index.dbPath, 'this build');
    await appendUntil(async () => (await strip(page).count()) === 0);
    await context.close();
  });
});
