/**
 * End-to-end, in real Chromium over the bundled samples: nothing cut off at 1440 and 390 px in either theme, the
 * keyboard, error navigation into subagents, find-in-session, search hits opening at their call, the resume command,
 * and the themes (followed, toggled, kept, readable). Skips plainly when Chromium or the built dashboard is missing.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EventsPage, SessionDetail, SessionErrorsResponse, SessionRow, SessionsResponse } from '@agentdash/api';
import type { RunningServer } from '@agentdash/server';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contrastRatio, parseCssColor } from '../src/ui/contrast';
import { CHROMIUM, e2eMissing, type ServedIndex, serveIndexOf } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');
const SHOTS = process.env.AGENTDASH_SHOTS ?? join(tmpdir(), 'agentdash-shots');

const missing = e2eMissing();

const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const SCHEMES = ['dark', 'light'] as const;

/** Elements wider than their box that do not scroll: what a person cannot see nor reach. */
async function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1) out.push(`page ${doc.scrollWidth} > ${doc.clientWidth}`);
    const keys = ['.topbar', '.nav', '.page', '.table-wrap', '.session-head', '.navbar', '.timeline', '.toolbar'];
    for (const sel of keys) {
      for (const el of document.querySelectorAll<HTMLElement>(sel)) {
        const style = getComputedStyle(el);
        const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
        if (el.scrollWidth > el.clientWidth + 1 && !scrolls) out.push(`${sel} ${el.scrollWidth} > ${el.clientWidth}`);
        const box = el.getBoundingClientRect();
        if (box.right > doc.clientWidth + 1) out.push(`${sel} ends at ${box.right} > ${doc.clientWidth}`);
      }
    }
    return out;
  });
}

describe.skipIf(missing !== undefined)('layout, keyboard, errors, find and themes in headless Chromium', () => {
  let served: ServedIndex;
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];

  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(new URL(`api${path}`, server.url));
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };

  const open = async (
    options: { width?: number; height?: number; scheme?: 'dark' | 'light' } = {},
  ): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
      colorScheme: options.scheme ?? 'dark',
    });
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    return { context, page };
  };
  const go = (page: Page, hash: string) => page.goto(new URL(hash, server.url).toString());

  /** The sample session with the most errors inside subagents, and those errors. */
  const subagentErrorSession = async () => {
    const list = await api<SessionsResponse>('/sessions?limit=1000');
    let best: { row: SessionRow; errors: SessionErrorsResponse['errors'] } | undefined;
    for (const row of list.sessions.filter((r) => r.errors > 0)) {
      const { errors } = await api<SessionErrorsResponse>(`/sessions/${encodeURIComponent(row.id)}/errors`);
      const inside = errors.filter((e) => e.expand.length > 0).length;
      if (inside > 0 && (!best || inside > best.errors.filter((e) => e.expand.length > 0).length)) {
        best = { row, errors };
      }
    }
    if (!best) throw new Error('no sample session has an error inside a subagent');
    return best;
  };

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    served = await serveIndexOf('agentdash-e2e-ui-', [samples]);
    server = served.server;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('cuts nothing off on any page at 1440 and 390 px, dark and light', async () => {
    const { row } = await subagentErrorSession();
    const id = encodeURIComponent(row.id);
    const pages = ['#/', `#/s/${id}`, '#/analytics', '#/usage', `#/s/${id}/waterfall`];
    const found: string[] = [];
    for (const size of SIZES) {
      for (const scheme of SCHEMES) {
        const { context, page } = await open({ width: size.width, height: size.height, scheme });
        for (const hash of pages) {
          await go(page, hash);
          await page.waitForSelector('.page, .session-layout');
          await page.waitForTimeout(600);
          for (const p of await cutOff(page)) found.push(`${size.name} ${scheme} ${hash}: ${p}`);
          const name = hash === '#/' ? 'list' : hash.includes('waterfall') ? 'waterfall' : hash.split('/')[1];
          await page.screenshot({ path: join(SHOTS, `ui-${size.name}-${scheme}-${name}.png`) });
        }
        await context.close();
      }
    }
    expect(found).toEqual([]);
  });

  it('shows every column of the sessions table at 1440 px and cards at 390 px', async () => {
    const wide = await open({ width: 1440 });
    await go(wide.page, '#/');
    await wide.page.waitForSelector('[data-testid=session-row]');
    const fit = await wide.page.evaluate(() => {
      const wrap = document.querySelector<HTMLElement>('[data-testid=sessions-wrap]');
      const heads = [...document.querySelectorAll<HTMLElement>('[data-testid=sessions-table] th')];
      const box = wrap?.getBoundingClientRect();
      return {
        fits: wrap ? wrap.scrollWidth <= wrap.clientWidth + 1 : false,
        hidden: heads.filter((h) => box && h.getBoundingClientRect().right > box.right + 1).map((h) => h.textContent),
        count: heads.length,
      };
    });
    expect(fit).toEqual({ fits: true, hidden: [], count: 8 });
    await wide.context.close();

    const narrow = await open({ width: 390, height: 844 });
    await go(narrow.page, '#/');
    await narrow.page.waitForSelector('[data-testid=session-row]');
    const card = await narrow.page.evaluate(() => {
      const row = document.querySelector<HTMLElement>('[data-testid=session-row]');
      const head = document.querySelector<HTMLElement>('[data-testid=sessions-table] thead');
      return {
        display: row ? getComputedStyle(row).display : '',
        head: head ? getComputedStyle(head).display : '',
        labels: [...(row?.querySelectorAll('td[data-label]') ?? [])].map((td) => td.getAttribute('data-label')),
      };
    });
    expect(card).toEqual({
      display: 'grid',
      head: 'none',
      labels: ['Started', 'Time', 'Messages', 'Tool calls', 'Errors', 'Cost'],
    });
    await narrow.context.close();
  });

  it('labels the date range and keeps its two fields on one row, at 1440 and 390 px', async () => {
    for (const size of SIZES) {
      const { context, page } = await open({ width: size.width, height: size.height });
      await go(page, '#/');
      await page.waitForSelector('[data-testid=session-row]');
      const range = page.getByTestId('date-range');
      expect((await range.innerText()).replace(/\s+/g, ' ').trim(), size.name).toBe('From to');
      const from = await page.getByLabel('From', { exact: true }).boundingBox();
      const to = await page.getByLabel('To', { exact: true }).boundingBox();
      if (from === null || to === null) throw new Error(`${size.name}: a date field is not shown`);
      expect(Math.abs(from.y - to.y), size.name).toBeLessThan(2);
      expect(to.x, size.name).toBeGreaterThan(from.x + from.width);
      await context.close();
    }
  });

  it('jumps with e to every error, reaching the ones inside subagents, and lists errors only', async () => {
    const { row, errors } = await subagentErrorSession();
    const { context, page } = await open();
    await go(page, `#/s/${encodeURIComponent(row.id)}`);
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
    expect(await page.locator('[data-testid=error-position]').textContent()).toBe(
      `Error ${inside + 1} of ${errors.length}`,
    );
    // the Agent call that holds it rolls the subagent's errors up
    const detail = await api<SessionDetail>(`/sessions/${encodeURIComponent(row.id)}?wait=1`);
    const sub = detail.subagents.find((s) => s.parentCallId === target.expand[0]);
    const badge = page.locator(`[id="call-${target.expand[0]}"] [data-testid=subagent-errors]`).first();
    expect(await badge.getAttribute('data-errors')).toBe(String(sub?.errors));
    await page.screenshot({ path: join(SHOTS, 'ui-error-in-subagent.png') });
    // E goes back
    await page.keyboard.press('E');
    const previous = `Error ${inside === 0 ? errors.length : inside} of ${errors.length}`;
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid=error-position]')?.textContent === text,
      previous,
    );
    // errors only: one row per event that holds an error
    await page.check('[data-testid=errors-only]');
    await page.waitForTimeout(500);
    const rows = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid=event-row]')].map((e) => Number(e.getAttribute('data-event-index'))),
    );
    expect(rows).toEqual([...new Set(errors.map((e) => e.index))].sort((a, b) => a - b).slice(0, rows.length));
    expect(rows.length).toBeGreaterThan(0);
    await context.close();
  });

  it('answers the keyboard: / and Ctrl-K search, ? help, j/k events, g/G top and bottom', async () => {
    const { row } = await subagentErrorSession();
    const { context, page } = await open();
    await go(page, '#/');
    await page.waitForSelector('[data-testid=session-row]');
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('search');
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid=shortcuts-help]');
    const keys = await page.locator('[data-testid=shortcuts-help] kbd').allTextContents();
    for (const k of ['/', 'j', 'k', 'e', 'E', 'g', 'G', '?']) expect(keys).toContain(k);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=shortcuts-help]', { state: 'detached' });

    await go(page, `#/s/${encodeURIComponent(row.id)}`);
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
    await context.close();
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
    const { context, page } = await open();
    await go(page, '#/');
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
    await page.screenshot({ path: join(SHOTS, 'ui-search-hit.png') });
    await context.close();
  });

  it('copies the resume command for the session folder', async () => {
    const { row } = await subagentErrorSession();
    const { context, page } = await open();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await go(page, `#/s/${encodeURIComponent(row.id)}`);
    await page.click('[data-testid=copy-resume]');
    await page.waitForFunction(() => document.querySelector('[data-testid=copy-resume]')?.textContent === 'Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`cd ${row.projectPath} && claude --resume ${row.id}`);
    await context.close();
  });

  it("shows a message's Copy button on hover without covering its time, at 1440 and 390 px", async () => {
    const { row } = await subagentErrorSession();
    for (const size of SIZES) {
      const { context, page } = await open(size);
      await go(page, `#/s/${encodeURIComponent(row.id)}`);
      const prompt = page.locator('[data-testid=prompt]').first();
      await prompt.hover();
      const copy = prompt.locator('[data-testid=copy-message]');
      await page.waitForFunction(
        () =>
          getComputedStyle(document.querySelector('[data-testid=prompt] [data-testid=copy-message]') as Element)
            .opacity === '1',
      );
      const [a, b] = [await prompt.locator('.time').boundingBox(), await copy.boundingBox()];
      if (!a || !b) throw new Error('the time or the Copy button has no box');
      const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      expect(overlap, `${size.name}: time ${JSON.stringify(a)}, Copy ${JSON.stringify(b)}`).toBe(false);
      await context.close();
    }
  });

  it("keeps the list's search, filters and order in the address: Back, a reload and the breadcrumb find them", async () => {
    const { context, page } = await open();
    await go(page, '#/');
    await page.getByTestId('session-row').first().waitFor();
    await page.getByTestId('search').fill('echo');
    await page.getByTestId('filter-errors').check();
    const cost = page.locator('th', { hasText: 'Cost' });
    await cost.click();
    await page.waitForFunction(() => window.location.hash.includes('sort=costUsd'));
    const summary = page.getByTestId('sessions-summary');
    // The list of these filters: fewer sessions than the whole list, each with errors.
    const all = await api<SessionsResponse>('/sessions?limit=1000');
    await expect.poll(async () => (await summary.textContent()) ?? '').not.toContain(`${all.total} sessions`);
    const filtered = (await summary.textContent()) ?? '';
    const hash = await page.evaluate(() => window.location.hash);
    expect(new URLSearchParams(hash.split('?')[1]).get('q')).toBe('echo');
    const expectSame = async (how: string) => {
      await expect.poll(async () => (await summary.textContent()) ?? '', { message: how }).toBe(filtered);
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
    await expect.poll(async () => page.getByTestId('search').inputValue()).toBe('');
    expect(await page.evaluate(() => window.location.hash)).toBe('#/');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps a long unbroken title in its column and a date with its year in its card', async () => {
    // A session of last year whose first prompt ends in a long URL (one word the browser cannot break by itself).
    const home = await mkdtemp(join(tmpdir(), 'agentdash-e2e-long-home-'));
    const id = '0c97beba-0000-4000-8000-000000000001';
    const url = `https://github.com/example/cli/actions/runs/21662191208/job/${'62449194626'.repeat(8)}`;
    const record = (type: string, uuid: string, parent: string | null, ts: string, message: unknown) =>
      JSON.stringify({
        type,
        uuid,
        parentUuid: parent,
        sessionId: id,
        timestamp: ts,
        cwd: '/home/someone/projects/a-rather-long-project-folder-name/worktrees/feature-branch-with-a-long-name',
        version: '2.1.30',
        message,
      });
    await mkdir(join(home, 'projects', '-tmp-long'), { recursive: true });
    await writeFile(
      join(home, 'projects', '-tmp-long', `${id}.jsonl`),
      `${[
        record('user', 'u1', null, '2025-12-16T00:00:01.000Z', {
          role: 'user',
          content: `main branch tests failing - why? ${url}`,
        }),
        record('assistant', 'a1', 'u1', '2025-12-16T00:00:03.000Z', {
          id: 'msg_long_1',
          role: 'assistant',
          model: 'claude-opus-4-5-20251101',
          content: [{ type: 'text', text: 'Looking.' }],
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
      ].join('\n')}\n`,
    );
    const long = await serveIndexOf('agentdash-e2e-long-', [home]);
    try {
      for (const size of SIZES) {
        const { context, page } = await open(size);
        await page.goto(new URL('#/', long.server.url).toString());
        const row = page.getByTestId('session-row').first();
        await row.waitFor();
        // Every cell's content stays within its cell (a title or date running over the next cell is cut off here).
        const spills = await row.evaluate((tr) =>
          [...tr.querySelectorAll('td')].flatMap((td) => {
            const cell = td.getBoundingClientRect();
            return [...td.querySelectorAll('*')]
              .filter((el) => el.getBoundingClientRect().right > cell.right + 1)
              .map(
                (el) =>
                  `${td.className || td.dataset.label}: ${el.tagName}.${el.className} ends at ${el.getBoundingClientRect().right} > ${cell.right}`,
              );
          }),
        );
        expect(spills, size.name).toEqual([]);
        expect(await cutOff(page), size.name).toEqual([]);
        await page.screenshot({ path: join(SHOTS, `ui-long-title-${size.name}.png`) });
        // The Usage page's top sessions: the long title is cut within its card, the cost column shown.
        await page.goto(new URL('#/usage', long.server.url).toString());
        const top = page.getByTestId('usage-top-sessions');
        await top.locator('tbody tr').first().waitFor();
        const [table, card, scrolls] = await top.evaluate((el) => {
          const wrap = el.querySelector('table')?.parentElement;
          return [
            el.querySelector('table')?.getBoundingClientRect().right ?? 0,
            el.getBoundingClientRect().right,
            wrap !== null && wrap !== undefined && getComputedStyle(wrap).overflowX === 'auto',
          ] as const;
        });
        // A chart's axis labels stay inside their card (SVG text is not cut by CSS: a long project path ran off).
        for (const [hash, card] of [
          ['#/usage', 'chart-usage-projects'],
          ['#/analytics', 'chart-projects'],
        ] as const) {
          if (page.url().split('#')[1] !== hash.slice(1)) await page.goto(new URL(hash, long.server.url).toString());
          const chart = page.getByTestId(card);
          if ((await chart.count()) === 0) continue;
          await chart.locator('.recharts-cartesian-axis-tick-value').first().waitFor();
          const outside = await chart.evaluate((el) => {
            const box = el.getBoundingClientRect();
            return [...el.querySelectorAll('.recharts-cartesian-axis-tick-value')]
              .map((t) => ({ text: t.textContent, left: t.getBoundingClientRect().left }))
              .filter((t) => t.left < box.left);
          });
          expect(outside, `${size.name} ${card}`).toEqual([]);
        }
        await page.goto(new URL('#/usage', long.server.url).toString());
        await top.locator('tbody tr').first().waitFor();
        // The page's title on one line, not squeezed beside its controls ("Usage / and cost" on a phone).
        const title = await page.locator('.page-title').boundingBox();
        expect(title?.height ?? 0, `${size.name}: Usage title ${JSON.stringify(title)}`).toBeLessThan(40);
        // At 1440 px it fits; on a phone it may be wider, and then it scrolls within its card.
        if (size.name === 'desktop' || !scrolls)
          expect(table, `${size.name}: top sessions table ends at ${table}, its card at ${card}`).toBeLessThanOrEqual(
            card,
          );
        await context.close();
      }
    } finally {
      await long.close();
      await rm(home, { recursive: true, force: true });
    }
  });

  it("shows a call's Copy input button clear of its renderer's badges, and copies the command", async () => {
    // The sample session with the most shell calls: each opened call's exit badge sits at its renderer's top right.
    const list = await api<SessionsResponse>('/sessions?limit=1000');
    const row = list.sessions.find((r) => r.title === 'Exercise the shell tools.');
    if (!row) throw new Error('no sample shell session');
    for (const size of SIZES) {
      const { context, page } = await open(size);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      await go(page, `#/s/${encodeURIComponent(row.id)}`);
      const block = page.locator('[data-testid=tool-block][data-tool=Bash]', {
        has: page.locator('[data-testid=exit-code]'),
      });
      await block.first().waitFor();
      const tool = block.first();
      await tool.locator('.tool-body').hover();
      const [badge, copy] = [
        await tool.locator('[data-testid=exit-code]').boundingBox(),
        await tool.locator('[data-testid=copy-input]').boundingBox(),
      ];
      if (!badge || !copy) throw new Error('the exit badge or the Copy input button has no box');
      const overlap =
        badge.x < copy.x + copy.width &&
        copy.x < badge.x + badge.width &&
        badge.y < copy.y + copy.height &&
        copy.y < badge.y + badge.height;
      expect(overlap, `${size.name}: exit ${JSON.stringify(badge)}, Copy ${JSON.stringify(copy)}`).toBe(false);
      expect(await tool.locator('[data-testid=copy-input]').isVisible()).toBe(true);
      await tool.locator('[data-testid=copy-input]').click();
      const command = await tool.locator('[data-testid=terminal] .cmd').textContent();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(`$ ${copied}`).toBe(command);
      await page.screenshot({ path: join(SHOTS, `ui-copy-input-${size.name}.png`) });
      await context.close();
    }
  });

  it("keeps a call's input and output blocks readable in both themes", async () => {
    const list = await api<SessionsResponse>('/sessions?limit=1000');
    const row = list.sessions.find((r) => r.title === 'Call the MCP tools.');
    if (!row) throw new Error('no sample MCP session');
    for (const scheme of SCHEMES) {
      const { context, page } = await open({ scheme });
      await go(page, `#/s/${encodeURIComponent(row.id)}`);
      await page.getByRole('button', { name: 'Expand all' }).click();
      await page.locator('.tool-body .json').first().waitFor();
      // Each block's text colour and the colour behind it (the first ancestor with a background).
      const blocks = await page.evaluate(() =>
        [...document.querySelectorAll('.tool-body .json, .tool-body pre, .tool-body .code')].slice(0, 40).map((el) => {
          let back = 'rgba(0, 0, 0, 0)';
          for (let at: Element | null = el; at && /rgba\(0, 0, 0, 0\)|transparent/.test(back); at = at.parentElement)
            back = getComputedStyle(at).backgroundColor;
          return { className: el.className, color: getComputedStyle(el).color, back };
        }),
      );
      expect(blocks.some((b) => b.className.includes('json'))).toBe(true);
      for (const block of blocks) {
        const [fg, bg] = [parseCssColor(block.color), parseCssColor(block.back)];
        expect(
          fg && bg ? contrastRatio(fg, bg) : 0,
          `${scheme} .${block.className}: ${block.color} on ${block.back}`,
        ).toBeGreaterThanOrEqual(4.5);
      }
      await context.close();
    }
  });

  it('follows the system theme, toggles and keeps the choice, and stays readable in both', async () => {
    const pairs = [
      ['--text', '--bg'],
      ['--text', '--panel'],
      ['--text-2', '--panel'],
      ['--text-2', '--bg-2'],
      ['--muted', '--panel'],
      ['--muted', '--bg'],
      ['--accent', '--bg'],
      ['--err', '--panel'],
    ] as const;
    for (const scheme of SCHEMES) {
      const { context, page } = await open({ scheme });
      await go(page, '#/');
      await page.waitForSelector('[data-testid=session-row]');
      const colours = await page.evaluate(
        (names) => {
          const style = getComputedStyle(document.documentElement);
          return Object.fromEntries(names.map((n) => [n, style.getPropertyValue(n).trim()]));
        },
        [...new Set(pairs.flat())],
      );
      const body = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const bg = parseCssColor(body);
      expect(bg, body).toBeDefined();
      const luminanceDark = bg ? bg.r + bg.g + bg.b < 200 : false;
      expect(luminanceDark).toBe(scheme === 'dark');
      for (const [fg, back] of pairs) {
        const a = parseCssColor(colours[fg] ?? '');
        const b = parseCssColor(colours[back] ?? '');
        expect(a && b ? contrastRatio(a, b) : 0, `${scheme} ${fg} on ${back}`).toBeGreaterThanOrEqual(4.5);
      }
      // the toggle switches to the other theme and keeps it across a reload
      await page.click('[data-testid=theme-toggle]');
      const other = scheme === 'dark' ? 'light' : 'dark';
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(other);
      await page.reload();
      await page.waitForSelector('[data-testid=session-row]');
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(other);
      const after = parseCssColor(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
      expect(after ? after.r + after.g + after.b < 200 : undefined).toBe(other === 'dark');
      await context.close();
    }
  });

  it('logged no page errors', () => {
    expect(problems).toEqual([]);
  });
});
