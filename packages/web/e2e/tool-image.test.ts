/**
 * End-to-end: the image a Codex view_image call sent as a message of its own (before 0.169) is drawn in a note
 * after the call ("Image the tool attached"), not as a second, blank prompt of the person's.
 */
import { viewImageLines, writeRollout } from '@agentdash/testing/codex-rollout';
import { describe, expect, it } from 'vitest';
import { e2eMissing, newPage, servedHome } from './harness';

const missing = e2eMissing();
const ID = '01a205ea-32e5-7d73-94dd-00000000a9e2';

describe.skipIf(missing !== undefined)("a view_image call's image, in headless Chromium", () => {
  const ui = servedHome('agentdash-e2e-tool-image-', (home) => {
    writeRollout(home, ID, viewImageLines());
    return undefined;
  });

  it('draws it in a note of the call, and shows one prompt', async () => {
    const problems: string[] = [];
    const { context, page } = await newPage(ui.browser, { problems });
    try {
      await page.goto(new URL(`#/s/${ID}`, ui.served.server.url).toString());
      const note = page.locator('[data-testid=note]', { hasText: 'Image the tool attached' });
      const image = note.locator('img[data-testid=prompt-image]');
      await image.waitFor();
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
      expect(await page.locator('[data-testid=prompt]').count()).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
