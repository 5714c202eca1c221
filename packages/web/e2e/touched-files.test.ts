/**
 * End-to-end, in real Chromium: a file on a session's Files page links to the sessions that touched it, the sessions
 * list filtered by that file, the filter shown with its path and removable.
 */
import type { SessionsResponse } from '@agentdash/api';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChromium, e2eMissing, newPage, type ServedIndex, serveIndexOf } from './harness';
import { SAMPLES } from './samples-ui';

const missing = e2eMissing('e2e touched files');

/** A file the bundled samples' subagents sessions read, and not every session of the samples. */
const DATA = '/home/user/proj/subagents/data.txt';

describe.skipIf(missing !== undefined)('the sessions that touched a file (headless Chromium)', () => {
  let served: ServedIndex;
  let browser: Browser;
  const list = async (query: string) =>
    (await (await fetch(new URL(`api/sessions?limit=200&${query}`, served.server.url))).json()) as SessionsResponse;
  beforeAll(async () => {
    served = await serveIndexOf('agentdash-e2e-touched-', [SAMPLES]);
    browser = await connectChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it("opens the list filtered by a file from a session's Files page, and the filter comes off", async () => {
    const all = await list('');
    const touching = await list(`file=${encodeURIComponent(DATA)}`);
    expect(touching.total).toBeGreaterThan(0);
    expect(touching.total).toBeLessThan(all.total);
    const id = touching.sessions[0]?.id ?? '';
    const problems: string[] = [];
    const { context, page } = await newPage(browser, { problems });
    try {
      await page.goto(new URL(`#/s/${encodeURIComponent(id)}/files`, served.server.url).toString());
      const link = page.locator(`[data-testid=file-row][data-path="${DATA}"] [data-testid=file-sessions]`);
      await link.click();
      await page.waitForSelector('[data-testid=filter-file]');
      expect(new URLSearchParams(new URL(page.url()).hash.slice('#/?'.length)).get('file')).toBe(DATA);
      expect(await page.getAttribute('[data-testid=filter-file]', 'title')).toContain(DATA);
      expect(await page.textContent('[data-testid=filter-file]')).toContain('data.txt');
      // The list the server gives for the file, row for row (the dashboard hides empty sessions: none of these is).
      const rowIds = () =>
        page.$$eval('[data-testid=session-row]', (trs) => trs.map((tr) => tr.getAttribute('data-session')));
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid=session-row]').length === n,
        touching.total,
      );
      expect((await rowIds()).sort()).toEqual(touching.sessions.map((s) => s.id).sort());
      expect(await page.textContent('[data-testid=sessions-summary]')).toMatch(
        new RegExp(`^${touching.total} sessions? ·`),
      );

      await page.click('[data-testid=filter-file-remove]');
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid=session-row]').length > n,
        touching.total,
      );
      expect(await page.locator('[data-testid=filter-file]').count()).toBe(0);
      // The list's address follows its filters a moment later (page-address.ts), not with the list.
      await page.waitForFunction(() => !window.location.hash.includes('file='));
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
