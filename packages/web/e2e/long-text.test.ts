/**
 * End-to-end: a prompt of a million characters (a pasted log) is drawn in its first 100,000 (one of megabytes drawn
 * whole takes seconds), the rest on "Show all", or when find-in-session looks for a match in it.
 */
import { join } from 'node:path';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { describe, expect, it } from 'vitest';
import { e2eMissing, newPage, servedHome } from './harness';

const missing = e2eMissing();
const SID = '10e70000-0000-4000-8000-000000000001';
const TWO = '10e70000-0000-4000-8000-000000000002';
const TEXT = `${'Here is the log: '.padEnd(60, '.')}\n${'a line of the pasted log, nothing to see\n'.repeat(25_000)}NEEDLE_AT_THE_END`;
/** A reply's long text (150,000 characters), then `end`. */
const reply = (end: string) => `${'a line of the reply, nothing to see\n'.repeat(4_200)}${end}`;

describe.skipIf(missing !== undefined)('a prompt of a million characters, in headless Chromium', () => {
  const ui = servedHome('agentdash-e2e-long-text-', (home) => {
    const at = basesOf(SID);
    writeLines(join(home, 'projects', '-home-user-proj-paste', `${SID}.jsonl`), [
      prompt(at('u1', null, 1), TEXT),
      assistantText(at('a1', 'u1', 2), 'msg_long_text_1', 'That log looks fine.'),
    ]);
    // a reply of two long texts, the match in the second
    const two = basesOf(TWO);
    writeLines(join(home, 'projects', '-home-user-proj-paste', `${TWO}.jsonl`), [
      prompt(two('u1', null, 1), 'Write two long texts'),
      assistantText(two('a1', 'u1', 2), 'msg_long_text_2', reply('THE_FIRST_ENDS_HERE')),
      assistantText(two('a2', 'a1', 3), 'msg_long_text_2', reply('THE_SECOND_ENDS_HERE')),
    ]);
    return undefined;
  });

  it('draws its first 100,000 characters, the rest when asked for or found', async () => {
    const problems: string[] = [];
    const { context, page } = await newPage(ui.browser, { problems });
    try {
      await page.goto(new URL(`#/s/${SID}`, ui.served.server.url).toString());
      const promptText = page.locator('[data-testid=prompt] .prompt-text');
      await promptText.waitFor();
      const note = page.locator('[data-testid=long-text-note]');
      expect(await note.textContent()).toBe(
        `The first 100,000 of ${TEXT.length.toLocaleString('en-US')} characters.Show all`,
      );
      const drawn = async () => (await promptText.textContent())?.length ?? 0;
      // the text drawn and the note under it
      expect(await drawn()).toBe(100_000 + (await note.textContent())!.length);
      expect(await promptText.textContent()).not.toContain('NEEDLE_AT_THE_END');
      // find draws the rest to show its match
      await page.fill('[data-testid=find-input]', 'NEEDLE_AT_THE_END');
      await page.keyboard.press('Enter');
      await expect
        .poll(async () => (await promptText.textContent())?.includes('NEEDLE_AT_THE_END'), { timeout: 15_000 })
        .toBe(true);
      expect(await note.count()).toBe(0);
      // and "Show all" does, once the page is drawn again
      await page.reload();
      await page.locator('[data-testid=long-text-more]').click();
      await expect.poll(async () => (await promptText.textContent())?.length, { timeout: 10_000 }).toBe(TEXT.length);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('draws the long text that holds the match, not every long text of the row', async () => {
    const problems: string[] = [];
    const { context, page } = await newPage(ui.browser, { problems });
    try {
      await page.goto(new URL(`#/s/${TWO}`, ui.served.server.url).toString());
      const notes = page.locator('[data-testid=long-text-note]');
      await expect.poll(() => notes.count(), { timeout: 15_000 }).toBe(2);
      await page.fill('[data-testid=find-input]', 'THE_SECOND_ENDS_HERE');
      await page.keyboard.press('Enter');
      await expect
        .poll(async () => (await page.locator('body').textContent())?.includes('THE_SECOND_ENDS_HERE'), {
          timeout: 15_000,
        })
        .toBe(true);
      // the first text is still drawn in part, its end not drawn
      expect(await notes.count()).toBe(1);
      expect(await page.locator('body').textContent()).not.toContain('THE_FIRST_ENDS_HERE');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
