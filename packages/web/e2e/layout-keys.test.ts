/**
 * End-to-end, in real Chromium over the bundled samples: nothing cut off at 1440 and 390 px in either theme, no two
 * blocks of a page touching, every column or card, long titles, Copy buttons clear of what they sit beside, readable
 * blocks, and the themes (followed, toggled, kept, readable). The keyboard, errors and find are in keys-find.test.ts.
 * Skips plainly when Chromium or the built dashboard is missing.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionsResponse } from '@agentdash/api';
import { describe, expect, it } from 'vitest';
import { contrastRatio, parseCssColor } from '../src/ui/contrast';
import { e2eMissing, idle, serveIndexOf, themeColours } from './harness';
import {
  cutOff,
  eachPair,
  lowContrast,
  resize,
  revisit,
  SCHEMES,
  SIZES,
  samplesInChromium,
  touchingBlocks,
} from './samples-ui';
import { shot } from './shots';

const missing = e2eMissing();

describe.skipIf(missing !== undefined)('layout, long titles, Copy buttons and themes in headless Chromium', () => {
  const ui = samplesInChromium('agentdash-e2e-ui-');
  const { api, open, go, visit, subagentErrorSession, problems } = ui;

  it('cuts nothing off and keeps blocks apart at 1440 and 390 px, every HTML text readable, dark and light', async () => {
    const { row } = await subagentErrorSession();
    const id = encodeURIComponent(row.id);
    const pages = ['#/', `#/s/${id}`, '#/analytics', '#/usage', `#/s/${id}/waterfall`];
    // The four size and scheme pairs one after the other in one page, each page once its API calls are drawn.
    const page = await ui.page();
    const found = await eachPair(page, async (size, scheme) => {
      const out: string[] = [];
      for (const hash of pages) {
        await visit(page, hash);
        await page.waitForSelector('.page, .session-layout');
        await idle(page);
        for (const p of await cutOff(page)) out.push(`${size.name} ${scheme} ${hash}: ${p}`);
        for (const p of await touchingBlocks(page)) out.push(`${size.name} ${scheme} ${hash}: ${p}`);
        // Every HTML text readable (WCAG AA) in both themes, once per scheme at the desktop size (not the charts'
        // SVG labels nor the waterfall's canvas, whose colours are the theme's muted text).
        if (size.name !== 'phone') for (const p of await lowContrast(page)) out.push(`${scheme} ${hash}: ${p}`);
        const name = hash === '#/' ? 'list' : hash.includes('waterfall') ? 'waterfall' : hash.split('/')[1];
        await shot(page, `ui-${size.name}-${scheme}-${name}`);
      }
      return out;
    });
    expect(found.flat()).toEqual([]);
  });

  it('shows every column of the sessions table at 1440 px and cards at 390 px', async () => {
    const wide = { page: await ui.page({ width: 1440 }) };
    await visit(wide.page, '#/');
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
    // The headers sort the table there: no second control.
    expect(await wide.page.locator('[data-testid=sort-picker]').isVisible()).toBe(false);

    // The same page on a phone, the list drawn again at its width.
    const narrow = wide;
    await resize(narrow.page, { width: 390, height: 844 });
    await visit(narrow.page, '#/');
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
    // The hidden headers' sorting, as a menu and a direction: most tool calls first, then fewest, in the address.
    const calls = () =>
      narrow.page.$$eval('[data-testid=session-row] td[data-label="Tool calls"]', (tds) =>
        tds.map((td) => Number((td.textContent ?? '').replace(/\D/g, ''))),
      );
    // Most first is the column's first order (no `dir` in the address), fewest first says `dir=asc`.
    const sorted = async (dir: 'desc' | 'asc') => {
      await narrow.page.waitForFunction(
        (asc) => location.hash.includes('sort=toolCalls') && location.hash.includes('dir=asc') === asc,
        dir === 'asc',
      );
      await idle(narrow.page);
      return calls();
    };
    expect(await narrow.page.locator('[data-testid=sort-picker]').isVisible()).toBe(true);
    await narrow.page.selectOption('[data-testid=sort-key]', 'toolCalls');
    const most = await sorted('desc');
    expect(most.length).toBeGreaterThan(2);
    expect(most).toEqual([...most].sort((a, b) => b - a));
    await narrow.page.click('[data-testid=sort-dir]');
    const fewest = await sorted('asc');
    expect(fewest).toEqual([...most].sort((a, b) => a - b));
    // A search orders by relevance: the picker says so and offers no column order that would not apply.
    await narrow.page.fill('[data-testid=search]', 'the');
    await narrow.page.waitForSelector('[data-testid=sort-relevance]');
    expect(await narrow.page.locator('[data-testid=sort-key]').count()).toBe(0);
    await narrow.page.fill('[data-testid=search]', '');
    await narrow.page.waitForSelector('[data-testid=sort-key]');
  });

  it('labels the date range and keeps its two fields on one row, at 1440 and 390 px', async () => {
    const page = await ui.page();
    for (const size of SIZES) {
      await resize(page, size);
      await visit(page, '#/');
      await page.waitForSelector('[data-testid=session-row]');
      const range = page.getByTestId('date-range');
      expect((await range.innerText()).replace(/\s+/g, ' ').trim(), size.name).toBe('From to');
      const from = await page.getByLabel('From', { exact: true }).boundingBox();
      const to = await page.getByLabel('To', { exact: true }).boundingBox();
      if (from === null || to === null) throw new Error(`${size.name}: a date field is not shown`);
      expect(Math.abs(from.y - to.y), size.name).toBeLessThan(2);
      expect(to.x, size.name).toBeGreaterThan(from.x + from.width);
    }
  });

  it("shows a message's Copy button on hover without covering its time, at 1440 and 390 px", async () => {
    const { row } = await subagentErrorSession();
    const page = await ui.page();
    for (const size of SIZES) {
      await resize(page, size);
      await visit(page, `#/s/${encodeURIComponent(row.id)}`);
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
    }
  });

  it('keeps a long unbroken title in its column and a date with its year in its card', async () => {
    const LONG_TOOL = 'mcp__example-search-server__search_every_repository (grep, ripgrep, find_in_files)';
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
          content: [
            { type: 'text', text: 'Looking.' },
            { type: 'tool_use', id: 'toolu_long_1', name: LONG_TOOL, input: { pattern: 'x' } },
          ],
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
        record('user', 'u2', 'a1', '2025-12-16T00:00:04.000Z', {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_long_1', content: 'no match' }],
        }),
      ].join('\n')}\n`,
    );
    const long = await serveIndexOf('agentdash-e2e-long-', [home]);
    const { context, page } = await open();
    try {
      for (const size of SIZES) {
        await resize(page, size);
        await revisit(page, new URL('#/', long.server.url).toString());
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
        await shot(page, `ui-long-title-${size.name}`);
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
        // A long tool name (with spaces, as a merged tool's aliases are listed) stays one line: wrapped, it ran over
        // the bars above it and off the card's top.
        for (const [hash, card] of [
          ['#/usage', 'chart-usage-projects'],
          ['#/analytics', 'chart-projects'],
          ['#/analytics', 'chart-tools'],
        ] as const) {
          if (page.url().split('#')[1] !== hash.slice(1)) await page.goto(new URL(hash, long.server.url).toString());
          const chart = page.getByTestId(card);
          if ((await chart.count()) === 0) continue;
          await chart.locator('.recharts-cartesian-axis-tick-value').first().waitFor();
          const outside = await chart.evaluate((el) => {
            const box = el.getBoundingClientRect();
            return [...el.querySelectorAll('.recharts-cartesian-axis-tick-value')]
              .map((t) => ({
                text: t.textContent,
                left: t.getBoundingClientRect().left,
                lines: t.querySelectorAll('tspan').length,
              }))
              .filter((t) => t.left < box.left || t.lines > 1);
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
      }
    } finally {
      await context.close();
      await long.close();
      await rm(home, { recursive: true, force: true });
    }
  });

  it("shows a call's Copy input button clear of its renderer's badges, and copies the command", async () => {
    // The sample session with the most shell calls: each opened call's exit badge sits at its renderer's top right.
    const list = await api<SessionsResponse>('/sessions?limit=1000');
    const row = list.sessions.find((r) => r.title === 'Exercise the shell tools.');
    if (!row) throw new Error('no sample shell session');
    const page = await ui.page();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.server.url });
    for (const size of SIZES) {
      await resize(page, size);
      await visit(page, `#/s/${encodeURIComponent(row.id)}`);
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
      await shot(page, `ui-copy-input-${size.name}`);
    }
  });

  it("keeps a call's input and output blocks readable in both themes", async () => {
    const list = await api<SessionsResponse>('/sessions?limit=1000');
    const row = list.sessions.find((r) => r.title === 'Call the MCP tools.');
    if (!row) throw new Error('no sample MCP session');
    const page = await ui.page();
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      await visit(page, `#/s/${encodeURIComponent(row.id)}`);
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
    await Promise.all(
      SCHEMES.map(async (scheme) => {
        const { context, page } = await open({ scheme });
        await go(page, '#/');
        await page.waitForSelector('[data-testid=session-row]');
        const colours = await themeColours(page, [...new Set(pairs.flat())]);
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
      }),
    );
  });

  it('logged no page errors', () => {
    expect(problems).toEqual([]);
  });
});
