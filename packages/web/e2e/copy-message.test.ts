/**
 * End-to-end, in real Chromium: an assistant text's Copy button, shown on hover, covers none of the text (it sat over
 * the end of the first line), at 1440 and 390 px.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eMissing, newPage, servedHome } from './harness';
import { SIZES } from './samples-ui';
import { shot } from './shots';

const missing = e2eMissing();
const id = '0c97beba-0000-4000-8000-0000000000c0';
// A first line that fills the column at either width, then more of it.
const text = `${'The failing test reads the configuration before the fixture writes it, so '.repeat(6)}the order is wrong.\n\nA second paragraph.`;

describe.skipIf(missing !== undefined)('a message’s Copy button in headless Chromium', () => {
  const ui = servedHome('agentdash-e2e-copy-', async (home) => {
    const record = (type: string, uuid: string, parent: string | null, ts: string, message: unknown) =>
      JSON.stringify({ type, uuid, parentUuid: parent, sessionId: id, timestamp: ts, cwd: '/home/me/app', message });
    await mkdir(join(home, 'projects', '-home-me-app'), { recursive: true });
    await writeFile(
      join(home, 'projects', '-home-me-app', `${id}.jsonl`),
      `${[
        record('user', 'u1', null, '2026-11-16T00:00:01.000Z', { role: 'user', content: 'Why does it fail?' }),
        record('assistant', 'a1', 'u1', '2026-11-16T00:00:03.000Z', {
          id: 'msg_copy_1',
          role: 'assistant',
          model: 'claude-opus-4-5-20251101',
          content: [{ type: 'text', text }],
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
      ].join('\n')}\n`,
    );
    return undefined;
  });

  it('covers none of the text it copies, at 1440 and 390 px', async () => {
    for (const size of SIZES) {
      const { context, page } = await newPage(ui.browser, { viewport: { width: size.width, height: size.height } });
      await page.goto(new URL(`#/s/${id}`, ui.served.server.url).toString());
      const message = page.locator('[data-testid=assistant-text]').first();
      await message.waitFor({ timeout: 15_000 });
      await message.hover();
      await page.waitForFunction(
        () =>
          getComputedStyle(document.querySelector('[data-testid=assistant-text] [data-testid=copy-message]') as Element)
            .opacity === '1',
      );
      const covered = await message.evaluate((el) => {
        const button = el.querySelector('[data-testid=copy-message]') as Element;
        const b = button.getBoundingClientRect();
        const out: string[] = [];
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
          const node = walker.currentNode;
          if (button.contains(node) || (node.textContent ?? '').trim() === '') continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const r of range.getClientRects()) {
            if (r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom) {
              out.push(`line at ${Math.round(r.top)}: ${Math.round(r.left)}–${Math.round(r.right)}`);
            }
          }
        }
        return out.length === 0 ? [] : [`Copy at ${Math.round(b.left)}–${Math.round(b.right)}`, ...out];
      });
      expect(covered, size.name).toEqual([]);
      await shot(page, `ui-copy-message-${size.name}`);
      await context.close();
    }
  }, 60_000);
});
