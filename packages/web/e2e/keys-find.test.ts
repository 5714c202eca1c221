/**
 * End-to-end, in real Chromium over the bundled samples: the keyboard, error navigation into subagents, search hits
 * opening at their call, the resume command, and the list's state kept in the address. The layout and themes are in
 * layout-keys.test.ts. Skips plainly when Chromium or the built dashboard is missing.
 */
import type { EventsPage, SessionDetail, SessionsResponse } from '@agentdash/api';
import { describe, expect, it } from 'vitest';
import { errorBarText } from '../src/pages/session/NavBar';
import { e2eMissing, idle } from './harness';
import { samplesInChromium } from './samples-ui';
import { shot } from './shots';

const missing = e2eMissing();

describe.skipIf(missing !== undefined)('keyboard, errors, find and the address in headless Chromium', () => {
  const ui = samplesInChromium('agentdash-e2e-keys-');
  const { api, subagentErrorSession, problems } = ui;

  it('jumps with e to every error, reaching the ones inside subagents, and lists errors only', async () => {
    const { row, errors } = await subagentErrorSession();
    const page = await ui.page();
    await ui.visit(page, `#/s/${encodeURIComponent(row.id)}`);
    await page.waitForSelector('[data-testid=session-nav]');
    await page.waitForFunction(() => !document.querySelector('[data-testid=next-error]')?.hasAttribute('disabled'));
    const inside = errors.findIndex((e) => e.expand.length > 0);
    for (let i = 0; i <= inside; i++) await page.keyboard.press('e');
    const target = errors[inside]!;
    await page.waitForFunction(
      (id) => {
        const el = document.getElementById(`call-${id}`);
        if (!el) return false;
        const box = el.getBoundingClientRect();
        return box.top < window.innerHeight && box.bottom > 0;
      },
      target.callId,
      { timeout: 20_000 },
    );
    const shown = await page.evaluate((id) => {
      const el = document.getElementById(`call-${id}`);
      return {
        status: el?.getAttribute('data-status'),
        inSubagent: !!el?.closest('[data-testid=subagent-timeline]'),
        flagged: el?.classList.contains('highlight-flash'),
      };
    }, target.callId);
    expect(shown).toEqual({
      status: target.severity === 'expected' ? 'expected' : 'error',
      inSubagent: true,
      flagged: true,
    });
    // numbered among the errors of its kind, as the header counts them (the expected ones apart)
    expect(await page.locator('[data-testid=error-position]').textContent()).toBe(
      errorBarText(errors, inside, undefined).position,
    );
    // the Agent call that holds it rolls the subagent's errors up
    const detail = await api<SessionDetail>(`/sessions/${encodeURIComponent(row.id)}?wait=1`);
    const sub = detail.subagents.find((s) => s.parentCallId === target.expand[0]);
    const badge = page.locator(`[id="call-${target.expand[0]}"] [data-testid=subagent-errors]`).first();
    expect(await badge.getAttribute('data-errors')).toBe(String(sub?.errors));
    await shot(page, 'ui-error-in-subagent');
    // E goes back
    await page.keyboard.press('E');
    const previous = errorBarText(errors, inside === 0 ? errors.length - 1 : inside - 1, undefined).position;
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid=error-position]')?.textContent === text,
      previous,
    );
    // errors only: one row per event that holds an error
    await page.check('[data-testid=errors-only]');
    const withErrors = [...new Set(errors.map((e) => e.index))].sort((a, b) => a - b);
    const eventRows = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('[data-testid=event-row]')].map((e) =>
          Number(e.getAttribute('data-event-index')),
        ),
      );
    // The list redrawn with the error rows only (as many as it mounts), from the first one on.
    await expect
      .poll(
        async () => {
          const rows = await eventRows();
          return rows.length > 0 && rows.join() === withErrors.slice(0, rows.length).join();
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const rows = await eventRows();
    expect(rows).toEqual(withErrors.slice(0, rows.length));
    expect(rows.length).toBeGreaterThan(0);
    // Errors only, on a page that jumped nowhere: the error inside a subagent is shown, its Agent call opened.
    const fresh = { page: await ui.page() };
    await ui.visit(fresh.page, `#/s/${encodeURIComponent(row.id)}`);
    await fresh.page.waitForSelector('[data-testid=event-row]');
    await fresh.page.check('[data-testid=errors-only]');
    await fresh.page.waitForSelector(`[data-testid=subagent-timeline] [id="call-${target.callId}"]`, {
      state: 'attached',
      timeout: 20_000,
    });
  });

  it('answers the keyboard: / and Ctrl-K search, ? help, j/k events, g/G top and bottom', async () => {
    const { row } = await subagentErrorSession();
    const page = await ui.page();
    await ui.visit(page, '#/');
    await page.waitForSelector('[data-testid=session-row]');
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('search');
    await page.keyboard.press('Escape');
    // Escape leaves the field for good: no late focus takes it back (the old second request came 300 ms later)
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)).toBeNull();
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid=shortcuts-help]');
    expect(await page.inputValue('[data-testid=search]')).toBe('');
    const keys = await page.locator('[data-testid=shortcuts-help] kbd').allTextContents();
    for (const k of ['/', 'j', 'k', 'e', 'E', 'g', 'G', '?']) expect(keys).toContain(k);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=shortcuts-help]', { state: 'detached' });

    await ui.visit(page, `#/s/${encodeURIComponent(row.id)}`);
    await page.waitForSelector('[data-testid=event-row] [data-testid]');
    const total = (await api<EventsPage>(`/sessions/${encodeURIComponent(row.id)}/events?offset=0&limit=1`)).total;
    const cursor = () => page.evaluate(() => document.querySelector('.ev-cursor')?.getAttribute('data-index') ?? null);
    await page.keyboard.press('j');
    expect(await cursor()).toBe('0');
    await page.keyboard.press('j');
    expect(await cursor()).toBe('1');
    await page.keyboard.press('k');
    expect(await cursor()).toBe('0');
    await page.keyboard.press('G');
    await page.waitForFunction(
      (last) => document.querySelector('.ev-cursor')?.getAttribute('data-index') === last,
      String(total - 1),
    );
    const atBottom = await page.evaluate(() => {
      const el = document.querySelector<HTMLElement>('[data-testid=timeline-scroll]');
      return el ? el.scrollHeight - el.scrollTop - el.clientHeight : -1;
    });
    expect(atBottom).toBeLessThan(120);
    await page.keyboard.press('g');
    await page.waitForFunction(() => document.querySelector('.ev-cursor')?.getAttribute('data-index') === '0');
    // Ctrl-K from a session goes to the list's search
    await page.keyboard.press('Control+k');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'search');
    expect(new URL(page.url()).hash).toBe('#/');
  });

  it('opens a search hit scrolled to its call, the match highlighted, the other hits listed', async () => {
    // a word of a Bash command that the list search finds
    const list = await api<SessionsResponse>('/sessions?limit=1000');
    let query: { q: string; session: string } | undefined;
    for (const r of list.sessions) {
      const page = await api<EventsPage>(`/sessions/${encodeURIComponent(r.id)}/events?offset=0&limit=500`);
      for (const e of page.events) {
        if (e.kind !== 'assistant') continue;
        for (const item of e.items) {
          const command = item.kind === 'tool-call' ? (item.input as { command?: unknown }).command : undefined;
          const word = typeof command === 'string' ? command.match(/[a-z]{7,}/)?.[0] : undefined;
          if (word && e.index > 3 && !query) query = { q: word, session: r.id };
        }
      }
    }
    if (!query) throw new Error('no Bash command in the samples');
    const hits = await api<SessionsResponse>(`/sessions?q=${encodeURIComponent(query.q)}`);
    const hit = hits.sessions.find((s) => s.matchCallId);
    expect(hit).toBeDefined();
    const page = await ui.page();
    await ui.visit(page, '#/');
    await page.fill('[data-testid=search]', query.q);
    // the row as the search lists it (with its snippet), not as the unfiltered list had it
    const row = page.locator(`[data-testid=session-row][data-session="${hit?.id}"]`);
    await row.locator('[data-testid=search-snippet]').waitFor();
    await row.click();
    await page.waitForFunction(
      (id) => {
        const el = document.getElementById(`call-${id}`);
        if (!el) return false;
        const box = el.getBoundingClientRect();
        return box.top < window.innerHeight && box.bottom > 0;
      },
      hit?.matchCallId,
      { timeout: 20_000 },
    );
    const url = new URL(page.url());
    expect(url.hash).toContain(`call=${encodeURIComponent(hit?.matchCallId ?? '')}`);
    await page.waitForSelector('[data-testid=find-hits] [data-testid=find-hit]');
    // matches are painted once the rows under the scroll root have rendered (a mutation observer repaints them)
    await page
      .waitForFunction(
        () => ((CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('find-match')?.size ?? 0) > 0,
        undefined,
        { timeout: 10_000 },
      )
      .catch(() => undefined);
    const marked = await page.evaluate(() => {
      const reg = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights;
      return { all: reg.get('find-match')?.size ?? 0, current: reg.get('find-current')?.size ?? 0 };
    });
    expect(marked.all).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=find-input]').inputValue()).toBe(query.q);
    expect(await page.locator('[data-testid=find-hit]').count()).toBeGreaterThan(0);
    // n goes to the next hit
    await page.locator('[data-testid=timeline-scroll]').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('n');
    await page.waitForFunction(() =>
      /^\d+ of \d+/.test(document.querySelector('[data-testid=find-count]')?.textContent ?? ''),
    );
    await shot(page, 'ui-search-hit');
  });

  it('copies the resume command for the session folder', async () => {
    const { row } = await subagentErrorSession();
    const page = await ui.page();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.server.url });
    await ui.visit(page, `#/s/${encodeURIComponent(row.id)}`);
    await page.click('[data-testid=copy-resume]');
    await page.waitForFunction(() => document.querySelector('[data-testid=copy-resume]')?.textContent === 'Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`cd ${row.projectPath} && claude --resume ${row.id}`);
  });

  it("keeps the list's search, filters and order in the address: Back, a reload and the breadcrumb find them", async () => {
    const page = await ui.page();
    await ui.visit(page, '#/');
    await page.getByTestId('session-row').first().waitFor();
    await page.getByTestId('search').fill('echo');
    await page.getByTestId('filter-errors').check();
    const cost = page.locator('th', { hasText: 'Cost' });
    await cost.click();
    await page.waitForFunction(() => window.location.hash.includes('sort=costUsd'));
    const summary = page.getByTestId('sessions-summary');
    // The list of these filters: fewer sessions than the whole list, each with errors.
    const all = await api<SessionsResponse>('/sessions?limit=1000');
    await idle(page);
    await expect
      .poll(async () => (await summary.textContent()) ?? '', { timeout: 10_000 })
      .not.toContain(`${all.total} sessions`);
    const filtered = (await summary.textContent()) ?? '';
    const hash = await page.evaluate(() => window.location.hash);
    expect(new URLSearchParams(hash.split('?')[1]).get('q')).toBe('echo');
    // After a reload the list says "Loading…" until its page has come: wait for the summary to read the same (a poll's
    // one second was too short for that on a loaded machine), then check the controls.
    const same = new RegExp(`^${filtered.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    const expectSame = async (how: string) => {
      await summary.filter({ hasText: same }).waitFor();
      expect((await summary.textContent()) ?? '', how).toBe(filtered);
      expect(await page.getByTestId('search').inputValue(), how).toBe('echo');
      expect(await page.getByTestId('filter-errors').isChecked(), how).toBe(true);
      expect(await cost.getAttribute('aria-sort'), how).toBe('descending');
    };
    await page.getByTestId('session-row').first().locator('a').first().click();
    await page.locator('.session-head').waitFor();
    await page.goBack();
    await expectSame('after Back');
    await page.reload();
    await expectSame('after a reload');
    await page.getByTestId('session-row').first().locator('a').first().click();
    await page.locator('.session-head').waitFor();
    await page.locator('.session-head .crumbs a', { hasText: 'Sessions' }).click();
    await expectSame("after the session's Sessions link");
    // The top bar's Sessions starts a plain list again.
    await page.locator('.topbar a', { hasText: 'Sessions' }).click();
    // Vitest's poll gives up after 1 s by default; a loaded machine (two suites at once) took longer.
    await expect.poll(async () => page.getByTestId('search').inputValue(), { timeout: 10_000 }).toBe('');
    expect(await page.evaluate(() => window.location.hash)).toBe('#/');
    expect(problems).toEqual([]);
  });

  it('logged no page errors', () => {
    expect(problems).toEqual([]);
  });
});
