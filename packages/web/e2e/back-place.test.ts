/**
 * End-to-end: Back from a session finds the list where it was left. The rows came back (kept from the last answer)
 * but the page stood at its top with no row focused: a long scroll, and a "Show more" or two, away from the row the
 * user had opened. The scroll and the opened row's focus are given back now, after a "Show more" too.
 */
import { join } from 'node:path';
import { assistantText, prompt, writeLines } from '@agentdash/testing/synthetic';
import { describe, expect, it } from 'vitest';
import { e2eMissing, idle, newPage, servedHome } from './harness';

const missing = e2eMissing();
const SESSIONS = 170;

/** `n` sessions of one prompt and reply each, a minute apart, newest last. */
function manySessions(home: string, n: number): void {
  for (let i = 0; i < n; i++) {
    const id = `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
    const minute = new Date(Date.UTC(2026, 2, 4, 10, 0) + i * 60_000).toISOString();
    const at = (uuid: string, parent: string | null) => ({
      sessionId: id,
      uuid: `${id.slice(0, 8)}-0000-4000-8000-00000000000${uuid}`,
      parentUuid: parent === null ? null : `${id.slice(0, 8)}-0000-4000-8000-00000000000${parent}`,
      timestamp: minute,
    });
    writeLines(join(home, 'projects', '-home-user-proj-many', `${id}.jsonl`), [
      prompt(at('1', null), `Task number ${i}`),
      assistantText(at('2', '1'), `msg_${i}`, `Done ${i}.`),
    ]);
  }
}

describe.skipIf(missing !== undefined)('Back from a session, in headless Chromium', () => {
  const ui = servedHome('agentdash-e2e-back-place-', (home) => {
    manySessions(home, SESSIONS);
    return [home];
  });

  it('finds the list at the scroll it was left at, the opened row focused, past a "Show more"', async () => {
    const problems: string[] = [];
    const { context, page } = await newPage(ui.browser, { problems, viewport: { width: 1200, height: 700 } });
    await page.goto(new URL('#/', ui.served.server.url).toString());
    const rows = page.getByTestId('session-row');
    await rows.first().waitFor();
    await page.getByTestId('show-more').click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=session-row]').length === n, SESSIONS);
    await idle(page);
    // a row far down, past the first page
    const target = rows.nth(160);
    await target.scrollIntoViewIfNeeded();
    const id = await target.getAttribute('data-session');
    const top = await page.evaluate(() => document.getElementById('main')?.scrollTop ?? 0);
    expect(top).toBeGreaterThan(3000);
    await target.locator('a.t').click();
    await page.getByTestId('tool-block').or(page.locator('.timeline')).first().waitFor({ timeout: 15_000 });
    await page.goBack();
    await rows.nth(160).waitFor();
    await idle(page);
    const back = await page.evaluate(() => ({
      top: document.getElementById('main')?.scrollTop ?? 0,
      rows: document.querySelectorAll('[data-testid=session-row]').length,
      focused: document.activeElement?.closest('tr')?.getAttribute('data-session') ?? null,
    }));
    expect(back).toEqual({ top, rows: SESSIONS, focused: id });
    expect(problems).toEqual([]);
    await context.close();
  });
});
