/**
 * End-to-end, in real Chromium over the bundled samples: on a phone, the sessions list's two date fields each show
 * their whole day. Beside its "From" label the first field was narrower than the day it holds ("mm/dd/yyy" and the
 * calendar button at 360 px); the labels stand above the fields there now. A field's own width is what Chromium gives
 * a date field left to size itself (its day, its padding and the calendar button), measured on a copy of it in place.
 * Skips plainly when Chromium or the built dashboard is missing.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eMissing } from './harness';
import { samplesInChromium } from './samples-ui';
import { shot } from './shots';

const missing = e2eMissing();

/** Each date field's width as drawn and the width it takes when left to size itself, in px. */
function dateWidths(page: Page): Promise<{ drawn: number; own: number }[]> {
  return page.locator('input[type=date]').evaluateAll((fields) =>
    fields.map((field) => {
      const copy = field.cloneNode() as HTMLInputElement;
      copy.style.position = 'absolute';
      copy.style.visibility = 'hidden';
      copy.style.width = 'auto';
      field.parentElement?.append(copy);
      const own = copy.getBoundingClientRect().width;
      copy.remove();
      return { drawn: field.getBoundingClientRect().width, own };
    }),
  );
}

describe.skipIf(missing !== undefined)("the sessions list's date fields on a phone, in headless Chromium", () => {
  const ui = samplesInChromium('agentdash-e2e-phone-dates-');

  for (const width of [360, 390]) {
    it(`are as wide as the day each shows, at ${width} px`, async () => {
      const page = await ui.page({ width, height: 800, scheme: 'light' });
      await ui.visit(page, '#/');
      await page.locator('input[type=date]').first().waitFor();
      const widths = await dateWidths(page);
      await shot(page, `phone-dates-${width}`);
      expect(widths).toHaveLength(2);
      for (const { drawn, own } of widths) {
        expect(own).toBeGreaterThan(80);
        expect(drawn).toBeGreaterThanOrEqual(own - 0.5);
      }
      // both within the page: neither pushed past its right edge
      const right = await page
        .locator('input[type=date]')
        .last()
        .evaluate((el) => el.getBoundingClientRect().right);
      expect(right).toBeLessThanOrEqual(width);
    });
  }
});
