/**
 * End-to-end, in real Chromium over the bundled samples: the sessions list's search box shows its hint whole at the
 * common window widths (a laptop's 1280 and 1440, a desktop's 1920, a phone's 390). At 1440 px the filters beside it
 * squeezed the box to its least width and the hint read "Search prompts, messages, commands, out".
 */
import { describe, expect, it } from 'vitest';
import { e2eMissing, idle } from './harness';
import { samplesInChromium } from './samples-ui';
import { shot } from './shots';

const missing = e2eMissing();

const WIDTHS = [390, 1280, 1440, 1920] as const;

describe.skipIf(missing !== undefined)("the search box's hint in headless Chromium", () => {
  const ui = samplesInChromium('agentdash-e2e-search-hint-');

  it('reads whole at 390, 1280, 1440 and 1920 px', async () => {
    const found: string[] = [];
    for (const width of WIDTHS) {
      const { context, page } = await ui.open({ width, height: 900 });
      await ui.go(page, '#/');
      await page.getByTestId('session-row').first().waitFor({ timeout: 15_000 });
      await idle(page);
      // the hint's width in the box's own font, against the room the box leaves for text
      const fit = await page.getByTestId('search').evaluate((input: HTMLInputElement) => {
        const style = getComputedStyle(input);
        const ctx = document.createElement('canvas').getContext('2d');
        if (!ctx) return { hint: input.placeholder, text: Number.POSITIVE_INFINITY, room: 0 };
        ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        return { hint: input.placeholder, text: Math.ceil(ctx.measureText(input.placeholder).width), room };
      });
      if (fit.text > fit.room) found.push(`${width} px: "${fit.hint}" is ${fit.text} px in ${fit.room} px`);
      await shot(page, `ui-search-hint-${width}`);
      await context.close();
    }
    expect(found).toEqual([]);
    expect(ui.problems).toEqual([]);
  });
});
