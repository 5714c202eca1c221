/**
 * End-to-end, in real Chromium over the bundled samples: what a review of the dashboard's accessibility found a
 * keyboard or screen-reader user missing, each now there. A change of page names itself (the title was always
 * "AgentDash") and puts the focus on the new page's heading (it fell to the document's start); the current tab says
 * so; "Skip to content" works on a session's page too; the Export formats are a disclosure that closes when the focus
 * leaves it (an ARIA menu whose arrows did nothing, left open over the page); a search's result and the find's place
 * are announced; the keyboard's moves in a timeline (j, e) take the focus with them (it stayed on <body>, so Tab went
 * back to the page's start); on a phone the logo link and Live keep their names; under forced colours the keyboard's
 * place shows.
 */
import type { SessionsResponse } from '@agentdash/api';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { e2eMissing, idle } from './harness';
import { samplesInChromium } from './samples-ui';

const missing = e2eMissing();

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return { tag: el?.tagName ?? '', testid: el?.dataset.testid ?? '', text: el?.textContent?.slice(0, 60) ?? '' };
  });

describe.skipIf(missing !== undefined)('pages that say what they are, in headless Chromium', () => {
  const ui = samplesInChromium('agentdash-e2e-a11y-pages-');
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close();
  });
  async function open(hash: string, width = 1440): Promise<Page> {
    const opened = await ui.open({ width });
    contexts.push(opened.context);
    await ui.visit(opened.page, hash);
    return opened.page;
  }
  const firstSession = async () => (await ui.api<SessionsResponse>('/sessions?limit=1')).sessions[0]?.id ?? '';

  it('names each page in the title, marks its tab, and puts the focus on the heading of a page opened', async () => {
    const page = await open('#/');
    await page.locator('[data-testid=sessions-table] tbody tr a').first().waitFor({ timeout: 15_000 });
    await idle(page);
    expect(await page.title()).toBe('Sessions · AgentDash');
    expect(await page.locator('nav.nav a[aria-current=page]').allTextContents()).toEqual(['Sessions']);
    // a row's link from the keyboard, then Enter: the list (and the focused link) are gone
    await page.keyboard.press('j');
    expect((await focused(page)).tag).toBe('A');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1', undefined, { timeout: 15_000 });
    expect(await page.title()).toMatch(/^Session [0-9a-f]{8} · AgentDash$/);
    // the Usage tab, opened from the keyboard: its tab marked, its heading focused
    await page.locator('[data-testid=nav-usage]').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1', undefined, { timeout: 15_000 });
    expect(await page.title()).toBe('Usage · AgentDash');
    // the heading holds the focus without a ring drawn round the width of the page
    expect(await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle)).toBe('none');
    expect(await page.locator('nav.nav a[aria-current=page]').allTextContents()).toEqual(['Usage']);
  });

  it("skips to a session's content, and its Export closes when the focus leaves it", async () => {
    const page = await open(`#/s/${encodeURIComponent(await firstSession())}`);
    await page.locator('[data-testid=export-menu] summary').waitFor({ timeout: 15_000 });
    await idle(page);
    await page.locator('[data-testid=skip-link]').focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('session-layout'))).toBe(true);

    expect(await page.locator('[data-testid=export-menu] [role=menu], [role=menuitem]').count()).toBe(0);
    await page.locator('[data-testid=export-menu] summary').focus();
    await page.keyboard.press('Enter');
    const isOpen = () => page.getByTestId('export-menu').evaluate((d) => (d as HTMLDetailsElement).open);
    expect(await isOpen()).toBe(true);
    // through its four formats and out: closed, not left over what the focus went to
    for (let i = 0; i < 5; i++) await page.keyboard.press('Tab');
    expect((await focused(page)).testid).not.toMatch(/^export-/);
    expect(await isOpen()).toBe(false);
  });

  it("announces a search's result and the find's place, and names the find's and copy buttons", async () => {
    const page = await open('#/');
    const search = page.locator('[data-testid=search]');
    await search.waitFor({ timeout: 15_000 });
    await search.fill('Bash');
    const found = page.locator('[data-testid=sessions-found]');
    await expect.poll(() => found.textContent(), { timeout: 15_000 }).toMatch(/^\d+ sessions? found$/);
    expect(await found.getAttribute('role')).toBe('status');

    const session = await open(`#/s/${encodeURIComponent(await firstSession())}`);
    const find = session.locator('[data-testid=find-input]');
    await find.waitFor({ timeout: 15_000 });
    await find.fill('the');
    await session.locator('[data-testid=find-count]').waitFor({ timeout: 15_000 });
    expect(await session.locator('[data-testid=find-count]').getAttribute('aria-live')).toBe('polite');
    expect(await session.locator('[data-testid=error-position]').getAttribute('aria-live')).toBe('polite');
    expect(await session.getByRole('button', { name: 'Previous match' }).count()).toBe(1);
    expect(await session.getByRole('button', { name: 'Next match' }).count()).toBe(1);
    // each message's copy button says what it copies (they were all "Copy")
    const { row } = await ui.subagentErrorSession();
    const replies = await open(`#/s/${encodeURIComponent(row.id)}`);
    await replies.locator('[data-testid=assistant-text]').first().waitFor({ timeout: 15_000 });
    expect(await replies.getByRole('button', { name: 'Copy prompt' }).count()).toBeGreaterThan(0);
    expect(await replies.getByRole('button', { name: 'Copy reply' }).count()).toBeGreaterThan(0);
    // each message is a heading of the page, to move between them (they were plain text)
    expect(await replies.getByRole('heading', { level: 2, name: /^User/ }).count()).toBeGreaterThan(0);
    expect(await replies.getByRole('heading', { level: 2, name: /^Assistant/ }).count()).toBeGreaterThan(0);
  });

  it("takes the focus along the timeline's keyboard moves, so that Tab goes on from there", async () => {
    const { row } = await ui.subagentErrorSession();
    const page = await open(`#/s/${encodeURIComponent(row.id)}`);
    await page.locator('.ev-row').first().waitFor({ timeout: 15_000 });
    await idle(page);
    await page.keyboard.press('j');
    await page.waitForFunction(() => document.activeElement?.classList.contains('ev-cursor') === true, undefined, {
      timeout: 15_000,
    });
    // the next error: the focus goes to its call, inside the timeline
    await page.keyboard.press('e');
    await page.waitForFunction(
      () => document.activeElement?.id.startsWith('call-') === true || document.activeElement?.closest('[id^=call-]'),
      undefined,
      { timeout: 15_000 },
    );
    await page.keyboard.press('Tab');
    const after = await focused(page);
    expect(after.testid).not.toBe('skip-link');
    expect(await page.evaluate(() => document.activeElement?.closest('.topbar') === null)).toBe(true);
  });

  it('lets the one-character shortcuts be turned off, and remembers it', async () => {
    const page = await open(`#/s/${encodeURIComponent(await firstSession())}`);
    await page.locator('.ev-row').first().waitFor({ timeout: 15_000 });
    await idle(page);
    await page.locator('[data-testid=shortcuts-button]').click();
    const toggle = page.locator('[data-testid=single-keys]');
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    await page.keyboard.press('Escape');
    await page.reload();
    await page.locator('.ev-row').first().waitFor({ timeout: 15_000 });
    await idle(page);
    // j draws no cursor, ? opens no dialog, / leaves the page alone; Ctrl K still searches
    await page.keyboard.press('j');
    await page.keyboard.press('?');
    await page.keyboard.press('/');
    await page.waitForTimeout(500);
    expect(await page.locator('.ev-row.ev-cursor').count()).toBe(0);
    expect(await page.locator('[data-testid=shortcuts-help]').count()).toBe(0);
    expect(await page.evaluate(() => location.hash)).toMatch(/^#\/s\//);
    await page.keyboard.press('Control+k');
    await page.waitForFunction(() => location.hash === '#/', undefined, { timeout: 15_000 });
  });

  it('keeps the logo link and Live named on a phone, and shows the keyboard place under forced colours', async () => {
    const phone = await open('#/', 400);
    await phone.locator('[data-testid=live-status]').waitFor({ timeout: 15_000 });
    expect(await phone.getByRole('link', { name: 'AgentDash' }).count()).toBe(1);
    await expect.poll(() => phone.locator('[data-testid=live-status]').innerText()).toMatch(/Live|Offline/);

    const page = await open(`#/s/${encodeURIComponent(await firstSession())}`);
    await page.emulateMedia({ forcedColors: 'active' });
    await page.locator('.ev-row').first().waitFor({ timeout: 15_000 });
    await idle(page);
    await page.keyboard.press('j');
    const cursor = page.locator('.ev-row.ev-cursor');
    await cursor.waitFor({ timeout: 5_000 });
    expect(await cursor.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
  });

  it('outlines each page with one h1 and no heading level skipped (the cards were h3 under the h1)', async () => {
    const id = encodeURIComponent(await firstSession());
    for (const hash of ['#/', '#/usage', '#/analytics', `#/s/${id}`, `#/s/${id}/waterfall`, `#/s/${id}/files`]) {
      const page = await open(hash);
      await page.locator('h1').first().waitFor({ timeout: 15_000 });
      await idle(page);
      // the page's own headings: those of a message's Markdown are the author's, inside its h2
      const levels = await page.evaluate(() =>
        [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
          .filter((h) => h.closest('.md') === null && h.getClientRects().length > 0)
          .map((h) => `${h.tagName[1]} ${h.textContent?.slice(0, 30)}`),
      );
      const level = (i: number) => Number(levels[i]?.[0] ?? 1);
      expect(
        levels.filter((_, i) => level(i) === 1),
        `${hash} ${JSON.stringify(levels)}`,
      ).toHaveLength(1);
      const skips = levels.filter((_, i) => i > 0 && level(i) > level(i - 1) + 1);
      expect({ hash, skips }).toEqual({ hash, skips: [] });
    }
  });
});
