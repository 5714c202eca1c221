/**
 * End-to-end, in real Chromium over the bundled samples: what a person using the keyboard, or a screen reader through
 * Chromium's accessibility tree, needs of the dashboard. The sessions table's column headers sort from the keyboard
 * (they took a mouse click only, and their names carried the sort arrow); the charts, which the keyboard reaches
 * (their arrow keys step through the bars), have a name and show the focus (they had neither: their name was every
 * tick label run together); every table of Analytics and Usage has column headers ("Where the time went, by
 * project" had none); a tool's failing calls open from the keyboard (a click on its row or bar only), and their
 * panel's Close, like Esc in the Export menu, gives the focus back to what opened it (it fell to the page's start).
 * The waterfall's calls are reached one by one from the keyboard (only its Timeline link listed them).
 */
import type { SessionsResponse, WaterfallResponse } from '@agentdash/api';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { e2eMissing, idle } from './harness';
import { samplesInChromium } from './samples-ui';

const missing = e2eMissing();

/** The focused element's test id (or tag), after pressing Tab until `done` says so; undefined past `most` presses. */
async function tabTo(page: Page, done: (id: string) => boolean, most = 80): Promise<string | undefined> {
  for (let i = 0; i < most; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el?.dataset.testid ?? el?.tagName.toLowerCase() ?? '';
    });
    if (done(id)) return id;
  }
  return undefined;
}

describe.skipIf(missing !== undefined)('keyboard and accessibility tree in headless Chromium', () => {
  const ui = samplesInChromium('agentdash-e2e-a11y-');
  // One page for the file, 1440 px wide: each test opens its view in it as a new visit (`ui.visit`: the view mounted
  // afresh), the focus given up first, where a page load per test cost Chromium several visits each.
  let opened: { context: BrowserContext; page: Page } | undefined;
  afterAll(async () => {
    await opened?.context.close();
  });
  async function at(hash: string): Promise<Page> {
    opened ??= await ui.open({ width: 1440 });
    const { page } = opened;
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await ui.visit(page, hash);
    return page;
  }

  it('moves nothing under "reduce motion": a change of style is read back at once', async () => {
    // The pages open with reduced motion (harness.ts). A transition of any length on every element would make each
    // change a transition: a colour read back right after it (charts, the waterfall's canvas) would be the old one.
    const page = await at('#/');
    const read = await page.evaluate(() => {
      const el = document.body.appendChild(document.createElement('span'));
      el.style.color = 'rgb(1, 2, 3)';
      const first = getComputedStyle(el).color;
      el.style.color = 'rgb(200, 100, 50)';
      const second = getComputedStyle(el).color;
      el.remove();
      return [first, second];
    });
    expect(read).toEqual(['rgb(1, 2, 3)', 'rgb(200, 100, 50)']);
  });

  it("sorts the sessions table from the keyboard, by each header's button", async () => {
    const page = await at('#/');
    await page.getByTestId('session-row').first().waitFor({ timeout: 15_000 });
    await idle(page);
    const header = (name: string) => page.getByRole('columnheader', { name, exact: true });
    expect(await header('Started').getAttribute('aria-sort')).toBe('descending');
    // the headers' buttons are named by their words alone: the arrow is drawn, the order is aria-sort's
    expect(await page.getByRole('button', { name: 'Started', exact: true }).count()).toBe(1);
    expect(await tabTo(page, (id) => id === 'sort-by-costUsd')).toBe('sort-by-costUsd');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('th')].some(
        (th) => th.textContent?.startsWith('Cost') && th.getAttribute('aria-sort') !== 'none',
      ),
    );
    const first = await header('Cost').getAttribute('aria-sort');
    await page.keyboard.press('Space');
    await page.waitForFunction(
      (was) =>
        [...document.querySelectorAll('th')].some(
          (th) => th.textContent?.startsWith('Cost') && th.getAttribute('aria-sort') !== was,
        ),
      first,
    );
    expect([first, await header('Cost').getAttribute('aria-sort')].sort()).toEqual(['ascending', 'descending']);
    expect(await header('Started').getAttribute('aria-sort')).toBe('none');
  });

  it('says the rows shown are being replaced while a new order is on its way (aria-busy), and dims them', async () => {
    const page = await at('#/');
    await page.getByTestId('session-row').first().waitFor({ timeout: 15_000 });
    await idle(page);
    const wrap = page.getByTestId('sessions-wrap');
    expect(await wrap.getAttribute('aria-busy')).toBe('false');
    const before = await page.getByTestId('session-row').count();
    // the answer in that order held back, as a slow server's would be
    const byDuration = (url: URL) => url.pathname === '/api/sessions' && url.searchParams.get('sort') === 'durationMs';
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(byDuration, async (route) => {
      await held;
      await route.continue();
    });
    try {
      const answer = page.waitForResponse((r) => byDuration(new URL(r.url())));
      await page.getByTestId('sort-by-durationMs').click();
      await expect.poll(() => wrap.getAttribute('aria-busy')).toBe('true');
      // the rows of the order before stay (not blanked), dimmed
      expect(await page.getByTestId('session-row').count()).toBe(before);
      const opacity = () => wrap.locator('tbody').evaluate((el) => Number(getComputedStyle(el).opacity));
      await expect.poll(opacity).toBeLessThan(1);
      release();
      const sessions = ((await (await answer).json()) as SessionsResponse).sessions.map((r) => r.id);
      await expect.poll(() => wrap.getAttribute('aria-busy')).toBe('false');
      const shown = await page
        .getByTestId('session-row')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-session')));
      expect(shown).toEqual(sessions);
      // back to full opacity once its fade ends (read at once, a loaded machine caught it midway: 0.55)
      await expect.poll(opacity).toBe(1);
    } finally {
      release();
      await page.unroute(byDuration);
    }
  });

  it('names every chart of Analytics and Usage, shows its keyboard focus, and gives every table column headers', async () => {
    const found: string[] = [];
    for (const hash of ['#/analytics', '#/usage']) {
      const page = await at(hash);
      await page.locator('.recharts-surface').first().waitFor({ timeout: 15_000 });
      await idle(page);
      const charts = await page
        .getByRole('application')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      expect(charts.length, hash).toBeGreaterThan(1);
      for (const name of charts) if (!name) found.push(`${hash}: a chart without a name`);
      // each chart as the keyboard reaches it: a ring around it
      for (let n = 0; n < charts.length; n++) {
        const at = await tabTo(page, (id) => id === 'svg');
        if (at === undefined) {
          found.push(`${hash}: chart ${n + 1} not reached by Tab`);
          break;
        }
        const ring = await page.evaluate(() => {
          const el = document.activeElement as Element;
          const style = getComputedStyle(el);
          return `${el.getAttribute('aria-label')}: outline ${style.outlineStyle} ${style.outlineWidth}`;
        });
        if (/outline none|outline \S+ 0px/.test(ring)) found.push(`${hash}: ${ring}`);
      }
      const tables = await page.locator('table').evaluateAll((els) =>
        els.map((t) => ({
          id: t.getAttribute('data-testid') ?? t.className,
          heads: t.querySelectorAll('th').length,
        })),
      );
      for (const t of tables) if (t.heads === 0) found.push(`${hash}: table ${t.id} without headers`);
    }
    expect(found).toEqual([]);
    expect(ui.problems).toEqual([]);
  });

  it("opens a tool's failing calls from the keyboard, and Close gives the focus back", async () => {
    const page = await at('#/analytics');
    await page.getByTestId('tool-row').first().waitFor({ timeout: 15_000 });
    await idle(page);
    const opened = await tabTo(page, (id) => id === 'tool-drill', 200);
    expect(opened).toBe('tool-drill');
    const name = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    expect(name).toMatch(/^\S.*: \d+ failing calls?, show them$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('drill-row').first().waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=drill]') !== null)).toBe(true);
    await page.getByTestId('drill').getByRole('button', { name: 'Close' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('drill').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(name);
  });

  it("names a call's and a subagent's toggle by their words, not by the drawn ▶ and tool glyph", async () => {
    const list = await ui.api<SessionsResponse>('/sessions?limit=1000');
    const withAgent = list.sessions.find((s) => s.title?.includes('subagent')) ?? list.sessions[0];
    const page = await at(`#/s/${encodeURIComponent(withAgent?.id ?? '')}`);
    await page.getByTestId('tool-head').first().waitFor({ timeout: 15_000 });
    await idle(page);
    const toggles = page.locator('[data-testid=tool-head], [data-testid=subagent-toggle]');
    const tree: string[] = [];
    for (let i = 0; i < Math.min(8, await toggles.count()); i++) tree.push(await toggles.nth(i).ariaSnapshot());
    expect(tree.length).toBeGreaterThan(0);
    expect(tree.filter((node) => !/^- button "[A-Za-z]/.test(node))).toEqual([]);
  });

  it("says which metric Usage shows, and keeps a heading's hint a word apart in its name", async () => {
    const page = await at('#/usage');
    await page.getByTestId('chart-usage-days').locator('h2').waitFor({ timeout: 15_000 });
    await idle(page);
    const pressed = () =>
      Promise.all(
        ['Cost', 'Tokens'].map((name) => page.getByRole('button', { name, pressed: true, exact: true }).count()),
      );
    expect(await pressed()).toEqual([1, 0]);
    await page.getByRole('button', { name: 'Tokens', exact: true }).press('Enter');
    await page.getByRole('button', { name: 'Tokens', pressed: true }).waitFor();
    expect(await pressed()).toEqual([0, 1]);
    expect(await page.getByTestId('chart-usage-days').locator('h2').ariaSnapshot()).toMatch(
      /^- heading "Tokens per day stacked by model" \[level=2\]$/,
    );
  });

  it("shows the focus on every stop of the list's filters, the date fields' calendar buttons too", async () => {
    const page = await at('#/');
    await page.getByTestId('session-row').first().waitFor({ timeout: 15_000 });
    await idle(page);
    await page.getByTestId('search').focus();
    const unseen: string[] = [];
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(async () => {
        const el = document.activeElement as HTMLElement;
        // the ring grows in: read it once it has
        await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)));
        const style = getComputedStyle(el);
        const ring =
          (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
        return { id: el.dataset.testid ?? el.getAttribute('aria-label') ?? el.tagName, ring };
      });
      if (stop.id === 'filter-errors') break;
      if (!stop.ring) unseen.push(`stop ${i + 1}: ${stop.id}`);
    }
    expect(unseen).toEqual([]);
  });

  it('opens the shortcuts help as a named dialog whose table has headers, and gives the focus back on Esc', async () => {
    const page = await at('#/');
    await page.getByTestId('session-row').first().waitFor({ timeout: 15_000 });
    await idle(page);
    await page.getByTestId('shortcuts-button').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    expect(await dialog.getByRole('columnheader').allTextContents()).toEqual(['Keys', 'Does', 'Where']);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe(
      'shortcuts-button',
    );
  });

  it('gives the focus back to the Export button when Esc closes its menu', async () => {
    const list = await ui.api<SessionsResponse>('/sessions?limit=1');
    const page = await at(`#/s/${encodeURIComponent(list.sessions[0]?.id ?? '')}`);
    const summary = page.locator('[data-testid=export-menu] summary');
    await summary.waitFor({ timeout: 15_000 });
    await idle(page);
    await summary.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe(
      'export-html',
    );
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('export-menu').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');
  });

  it("reaches the waterfall's calls one by one from the keyboard, says each, and opens one with Enter", async () => {
    const { row } = await ui.subagentErrorSession();
    const id = encodeURIComponent(row.id);
    const wf = await ui.api<WaterfallResponse>(`/sessions/${id}/waterfall`);
    const lanes = wf.lanes.filter((l) => l.calls.length > 0);
    const [main, second] = lanes;
    expect(main && second && main.calls.length > 1).toBe(true);
    if (!main || !second) return;
    const page = await at(`#/s/${id}/waterfall`);
    await page.waitForSelector('[data-testid=waterfall-canvas][data-calls]:not([data-calls="0"])');
    expect(await tabTo(page, (t) => t === 'waterfall-canvas')).toBe('waterfall-canvas');
    const canvas = page.getByTestId('waterfall-canvas');
    // a widget a screen reader hands its keys to (in browse mode it keeps the arrows of an element without a role)
    expect([await canvas.getAttribute('role'), await canvas.getAttribute('aria-roledescription')]).toEqual([
      'application',
      'waterfall',
    ]);
    // its instructions are its description, beside the lanes its name lists
    await expect.poll(() => canvas.evaluate((el) => el.getAttribute('aria-label') ?? '')).toMatch(/^Waterfall lanes: /);
    const help = await canvas.evaluate(
      (el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent,
    );
    expect(help).toMatch(/arrow keys move between calls/);
    const said = () => page.getByTestId('wf-keyed').textContent();
    const tip = () => page.getByTestId('waterfall-tip').textContent();
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(said)
      .toMatch(new RegExp(`^${main.calls[0]?.tool}, .*main thread, call 1 of ${main.calls.length}\\.`));
    expect(await tip()).toContain(main.calls[0]?.tool ?? '?');
    await page.keyboard.press('ArrowRight');
    await expect.poll(said).toMatch(new RegExp(`^${main.calls[1]?.tool}, .*, call 2 of ${main.calls.length}\\.`));
    // a key with a modifier is the browser's or the page's, not a move (React draws a key's update before it returns)
    const onSecond = await said();
    await page.keyboard.press('Shift+ArrowRight');
    expect(await said()).toBe(onSecond);
    await page.keyboard.press('End');
    await expect.poll(said).toMatch(new RegExp(`call ${main.calls.length} of ${main.calls.length}\\.`));
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(said)
      .toMatch(
        new RegExp(`, ${second.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, call \\d+ of ${second.calls.length}\\.`),
      );
    // the focus leaves: the call is no longer shown; back on the canvas, the same call again
    const before = await said();
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => page.getByTestId('waterfall-tip').count()).toBe(0);
    await page.keyboard.press('Tab');
    await expect.poll(said).toBe(before);
    // Enter opens that call in the timeline
    const called = second.calls.find(
      (c) => before?.startsWith(`${c.tool}, `) && before.includes(`call ${second.calls.indexOf(c) + 1} of`),
    );
    expect(called).toBeDefined();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.hash.startsWith(`#/s/${id}?call=`));
    expect(new URL(page.url()).hash).toBe(`#/s/${id}?call=${encodeURIComponent(called?.id ?? '')}`);
  });
});
