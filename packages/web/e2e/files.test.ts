/**
 * End-to-end, in real Chromium: a session's Files page, reached from its header, lists the files it changed (with
 * their lines and failed calls) apart from those it did not change, and each call of a file opens in the timeline.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionsResponse } from '@agentdash/api';
import { basesOf, nextSessionId, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChromium, e2eMissing, newPage, type ServedIndex, serveIndexOf } from './harness';
import { SAMPLES } from './samples-ui';

const missing = e2eMissing('e2e files');

describe.skipIf(missing !== undefined)("a session's files (headless Chromium)", () => {
  let served: ServedIndex;
  let browser: Browser;
  let id: string;
  beforeAll(async () => {
    served = await serveIndexOf('agentdash-e2e-files-', [SAMPLES]);
    browser = await connectChromium();
    const list = (await (await fetch(new URL('api/sessions?limit=200', served.server.url))).json()) as SessionsResponse;
    id = list.sessions.find((s) => s.projectPath === '/home/user/proj/files')?.id ?? '';
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('lists the changed files apart from those not changed, and opens a file’s call in the timeline', async () => {
    expect(id).not.toBe('');
    const problems: string[] = [];
    const { context, page } = await newPage(browser, { problems });
    try {
      await page.goto(new URL(`#/s/${encodeURIComponent(id)}`, served.server.url).toString());
      await page.click('[data-testid=open-files]');
      await page.waitForSelector('[data-testid=files-changed] [data-testid=file-row]');
      const rows = (group: string) =>
        page.$$eval(`[data-testid=${group}] [data-testid=file-row]`, (trs) =>
          trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
        );
      const changed = await rows('files-changed');
      const read = await rows('files-read');
      // paths shown under the session's folder; 5 edits of edit-me.txt, 3 failed (2 worked), +3 −3 lines
      expect(changed.find((r) => r[0] === 'edit-me.txt')).toEqual([
        'edit-me.txt',
        '+3 −3',
        '1',
        '2',
        '',
        '3',
        '6 ▸',
        expect.any(String),
        // the link to the sessions that touched it (touched-files.test.ts)
        'all',
      ]);
      expect(changed.find((r) => r[0] === 'created.txt')?.[1]).toBe('created+2 −0');
      // Its crumbs a space apart, as every page's: 'Sessions / 0097a0c6 / Files', not 'Sessions/0097a0c6/Files'.
      const gaps = await crumbGaps(page);
      expect(gaps).toHaveLength(4);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(4);
      expect(read.map((r) => r[0])).toContain('missing.txt');
      expect(changed.map((r) => r[0])).not.toContain('missing.txt');
      // +2 +3 +1 +1 +1 +1 added; −3 −1 −30 −1 removed (notes.txt, 30 lines, overwritten with one)
      expect(await page.textContent('[data-testid=files-summary]')).toMatch(
        /^7 files changed \(\+9 −35 lines\) · 5 files not changed · /,
      );

      const row = page.locator('[data-testid=file-row][data-path$="/edit-me.txt"]');
      await row.locator('[data-testid=file-calls-toggle]').click();
      const calls = page.locator('[data-testid=file-call]');
      expect(await calls.count()).toBe(6);
      const second = await calls.nth(1).getAttribute('href');
      const callId = new URLSearchParams(second?.split('?')[1]).get('call');
      expect(callId).toBeTruthy();
      await calls.nth(1).click();
      await page.waitForSelector(`[id="call-${callId}"].highlight-flash`, { timeout: 10_000 });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("fits a phone: the counts and time give way to the path, and are said under the file's calls", async () => {
    const { context, page } = await newPage(browser, { viewport: { width: 390, height: 844 } });
    try {
      await page.goto(new URL(`#/s/${encodeURIComponent(id)}/files`, served.server.url).toString());
      await page.waitForSelector('[data-testid=files-read] [data-testid=file-row]');
      const overflow = () =>
        page.$$eval('.table-wrap', (wraps) => wraps.map((wrap) => wrap.scrollWidth - wrap.clientWidth));
      expect(await overflow()).toEqual([0, 0]);
      const headers = await page.$$eval('[data-testid=files-changed] th', (ths) =>
        ths.filter((th) => th.getBoundingClientRect().width > 0).map((th) => th.textContent),
      );
      expect(headers).toEqual(['File', 'Outcome', 'Failed', 'Calls']);
      const row = page.locator('[data-testid=file-row][data-path$="/edit-me.txt"]');
      await row.locator('[data-testid=file-calls-toggle]').click();
      const counts = page.locator('[data-testid=file-counts]');
      expect(await counts.textContent()).toMatch(/^1 read · 2 edits · last \d\d:\d\d:\d\d · its sessions$/);
      expect(await counts.locator('a').getAttribute('href')).toBe(
        await row.locator('[data-testid=file-sessions]').getAttribute('href'),
      );
      expect(await counts.isVisible()).toBe(true);
      expect(await overflow()).toEqual([0, 0]);
      // on a wide screen the columns say them, the line does not
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(await counts.isVisible()).toBe(false);
    } finally {
      await context.close();
    }
  });

  it('keeps the File column the widest when a file moved far: the move is cut, not the table', async () => {
    // a shell command that moved a file deep into another folder: "moved to …" ran the width of the table
    const home = await mkdtemp(join(tmpdir(), 'agentdash-e2e-moved-'));
    const sid = nextSessionId();
    const b = basesOf(sid);
    const far = 'archive/2026/some/very/deep/folder/of/old/reports/and/their/drafts/kept/for/later/report-final.md';
    writeLines(join(home, 'projects', '-home-user-proj-demo', `${sid}.jsonl`), [
      prompt(b('u1', null, 0), 'Move the report away'),
      toolUse(b('a1', 'u1', 1), 'msg_1', 'toolu_mv', 'Bash', { command: `mv report.md ${far}` }),
      toolResult(b('r1', 'a1', 2), 'toolu_mv', '', false),
    ]);
    const moved = await serveIndexOf('agentdash-e2e-files-moved-', [home]);
    const { context, page } = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(new URL(`#/s/${sid}/files`, moved.server.url).toString());
      const moves = '[data-testid=file-row][data-path="/home/user/proj/demo/report.md"]';
      const row = page.locator(`[data-testid=files-changed] ${moves}`);
      await row.waitFor();
      const fit = await page.$eval(
        '[data-testid=files-changed] .table-wrap',
        (wrap, at) => {
          const file = wrap.querySelector(`${at} td`)?.getBoundingClientRect().width ?? 0;
          const outcome = wrap.querySelector(`${at} td.files-outcome`)?.getBoundingClientRect().width ?? 0;
          return { overflow: wrap.scrollWidth - wrap.clientWidth, file, outcome };
        },
        moves,
      );
      expect(fit.overflow).toBeLessThanOrEqual(0);
      expect(fit.file).toBeGreaterThan(fit.outcome);
      expect(await row.locator('.files-outcome').textContent()).toBe(`moved to ${far}`);
      // the whole destination in its title
      expect(await row.locator('.files-outcome [title]').getAttribute('title')).toBe(`/home/user/proj/demo/${far}`);
      // the file the move put in place is created by it
      const created = page.locator(`[data-testid=files-changed] [data-testid=file-row][data-path$="/report-final.md"]`);
      expect(await created.locator('.files-outcome').textContent()).toContain('created');
      // on a phone the path keeps off the frame's border (a phone's tables drop their edge cells' padding)
      await page.setViewportSize({ width: 390, height: 800 });
      const gap = await page.$eval('[data-testid=files-changed] .table-wrap', (wrap) => {
        const link = wrap.querySelector('td a')?.getBoundingClientRect().left ?? 0;
        return link - wrap.getBoundingClientRect().left;
      });
      expect(gap).toBeGreaterThanOrEqual(6);
    } finally {
      await context.close();
      await moved.close();
      await rm(home, { recursive: true, force: true });
    }
  });
});

/** The room (CSS px) between each item of the page's crumbs and the next, left to right. */
function crumbGaps(page: Page): Promise<number[]> {
  return page.$eval('.page .crumbs', (crumbs) => {
    const boxes = [...crumbs.children].map((el) => el.getBoundingClientRect());
    return boxes.slice(1).map((box, i) => box.left - (boxes[i]?.right ?? 0));
  });
}
