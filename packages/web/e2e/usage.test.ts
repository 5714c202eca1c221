/**
 * End-to-end: the Usage page and the Waterfall in Debian's headless Chromium, over a real server and index: the
 * corpus (or the bundled samples), the usage fixture, a generated session of 10,000 tool calls, and one of three
 * calls 5 minutes, then an hour, apart.
 * Skips plainly when Chromium or the built dashboard is missing.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionsResponse, UsageResponse } from '@agentdash/api';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { type RunningServer, startServer } from '@agentdash/server';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BAR_PX } from '../src/pages/analytics/chart-theme';
import { dayBuckets } from '../src/pages/usage/day-range';
import { e2eMissing, idle, openChromium, settled, steady } from './harness';
import { shot } from './shots';
import { BIG, CLOCK_PROJECT, writeBigSession, writeClockSession } from './usage-sessions';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const corpus = resolve(repoRoot, '../shared/corpus');
const samples = resolve(repoRoot, 'packages/cli/samples/claude-home');
const fixture = resolve(repoRoot, 'packages/core/test/fixtures/usage');
const BIG_CALLS = 10_000;

const missing = e2eMissing();

describe.skipIf(missing !== undefined)('usage and waterfall in headless Chromium', () => {
  let tmp: string;
  let index: AgentIndex;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  const go = async (hash: string) => page.goto(new URL(hash, server.url).toString());
  const settledShot = async (name: string) => {
    await steady(page, '.recharts-bar-rectangle, [data-index]'); // bars grown in, rows measured
    await shot(page, name, { fullPage: true });
  };

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-e2e-usage-'));
    const homes = existsSync(corpus)
      ? (await readdir(corpus))
          .filter((v) => existsSync(join(corpus, v, 'claude-home', 'projects')))
          .map((v) => join(corpus, v, 'claude-home'))
      : [samples];
    const bigHome = join(tmp, 'big-home');
    writeBigSession(bigHome, BIG_CALLS);
    writeClockSession(bigHome);
    // the run's index of the read-only homes (the one dashboard.test.ts copies too), then the fixture and the big
    // session read into the copy
    await copyOfIndex(homes, join(tmp, 'index.sqlite'));
    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    const paths = [...homes, fixture, bigHome];
    await index.refresh(paths);
    server = await startServer({ index, paths, host: '127.0.0.1', port: 0 });
    ({ context, page } = await openChromium({ problems }));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    index?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('the Usage page shows cost, cache-hit ratio, charts, top sessions and blocks', async () => {
    const res = await fetch(new URL('api/usage', server.url));
    const usage = (await res.json()) as UsageResponse;
    await go('#/usage');
    await page.getByTestId('usage-total-cost').waitFor();
    await page.locator('[data-testid="chart-usage-days"] .recharts-bar-rectangle').first().waitFor();
    expect(await page.getByTestId('cache-hit').textContent()).toBe(
      usage.totals.cacheHitRatio < 0.01 ? '<1%' : `${Math.round(usage.totals.cacheHitRatio * 100)}%`,
    );
    // The top session by cost is listed first.
    const first = usage.topSessions[0];
    expect(first).toBeDefined();
    const firstLink = page.locator('[data-testid="usage-top-sessions"] tbody tr a').first();
    expect(await firstLink.getAttribute('href')).toBe(`#/s/${encodeURIComponent(first?.id ?? '')}`);
    // Models without a price (the corpus's scripted models) are named, not priced at $0.
    if (usage.totals.unpricedModels.length > 0) {
      expect(await page.getByTestId('unpriced-warning').textContent()).toContain(usage.totals.unpricedModels[0]);
    }
    expect(await page.locator('[data-testid="usage-blocks"] tbody tr').count()).toBe(usage.blocks.length);
    await settledShot('usage-page');
    await page.getByTestId('usage-blocks').scrollIntoViewIfNeeded();
    await settledShot('usage-page-lower');
    await page.getByTestId('chart-usage-time-days').scrollIntoViewIfNeeded();
    await settledShot('usage-page-time');
    expect(problems).toEqual([]);
  });

  it('the cost chart keeps its plot height on a phone: its legend of models is below it', async () => {
    const plotHeight = async (width: number) => {
      await page.setViewportSize({ width, height: 844 });
      await go('#/usage');
      await page.locator('[data-testid="chart-usage-days"] .recharts-bar-rectangle').first().waitFor();
      await steady(page, '.recharts-bar-rectangle');
      const grid = await page.locator('[data-testid=chart-usage-days] .recharts-cartesian-grid').boundingBox();
      const svg = await page.locator('[data-testid=chart-usage-days] svg.recharts-surface').first().boundingBox();
      const legend = await page.getByTestId('usage-legend').boundingBox();
      expect(legend?.y ?? 0).toBeGreaterThanOrEqual((svg?.y ?? 0) + (svg?.height ?? 0) - 1);
      return grid?.height ?? 0;
    };
    try {
      const wide = await plotHeight(1440);
      expect(wide).toBeGreaterThan(150);
      expect(await plotHeight(390)).toBe(wide);
      expect(await page.locator('[data-testid=usage-legend] li').count()).toBeGreaterThan(0);
    } finally {
      await page.setViewportSize({ width: 1440, height: 1000 });
    }
  });

  it('the project filter lists every project with one chosen, so another can be picked from it', async () => {
    await go('#/usage');
    const select = page.getByTestId('filter-project');
    await expect.poll(() => select.locator('option').count()).toBeGreaterThan(2);
    const all = await select.locator('option').count();
    await select.selectOption(CLOCK_PROJECT);
    await idle(page);
    await expect.poll(() => page.getByTestId('usage-total-cost').textContent()).toBeTruthy();
    expect(await select.locator('option').count()).toBe(all);
    await select.selectOption('');
  });

  it('a chart over time of one day draws its bars at most MAX_BAR_PX wide, not across the chart', async () => {
    // The clock session's project: one day of usage and of time.
    const project = encodeURIComponent(CLOCK_PROJECT);
    for (const [hash, chart] of [
      [`#/usage?project=${project}&metric=tokens`, 'chart-usage-days'],
      [`#/analytics?project=${project}`, 'analytics-time-days'],
    ] as const) {
      await go(hash);
      const bars = page.locator(`[data-testid="${chart}"] .recharts-bar-rectangle path`);
      // The widest bar once the chart has its size (a chart is drawn at width 0 before its container is measured).
      const widest = async () =>
        Math.max(0, ...(await Promise.all((await bars.all()).map(async (b) => (await b.boundingBox())?.width ?? 0))));
      await expect.poll(widest, { message: chart }).toBeGreaterThan(0);
      expect(await widest(), chart).toBeLessThanOrEqual(MAX_BAR_PX + 0.5);
    }
    expect(problems).toEqual([]);
  });

  it('Usage and Analytics keep their filters in the address: a reload shows the same view', async () => {
    await go('#/usage');
    await page.getByTestId('filter-project').selectOption(CLOCK_PROJECT);
    await page.getByLabel('Period').selectOption('30d');
    await page.getByRole('button', { name: 'Tokens', exact: true }).click();
    await expect.poll(() => new URL(page.url()).hash).toContain('metric=tokens');
    const hash = new URL(page.url()).hash;
    expect(hash).toMatch(/^#\/usage\?/);
    expect(hash).toContain('range=30d');
    expect(hash).toContain(`project=${encodeURIComponent(CLOCK_PROJECT)}`);
    await page.reload();
    await page.getByTestId('usage-total-cost').waitFor();
    expect(await page.getByTestId('filter-project').inputValue()).toBe(CLOCK_PROJECT);
    expect(await page.getByLabel('Period').inputValue()).toBe('30d');
    expect(await page.getByRole('button', { name: 'Tokens', exact: true }).getAttribute('class')).toContain('primary');
    // The nav link is a navigation: the page starts again from its defaults, and so does its address.
    await page.getByTestId('nav-usage').click();
    await expect.poll(() => page.getByLabel('Period').inputValue()).toBe('all');
    expect(new URL(page.url()).hash).toBe('#/usage');

    await go('#/analytics');
    await page.getByTestId('filter-project').selectOption(CLOCK_PROJECT);
    await expect.poll(() => new URL(page.url()).hash).toContain('project=');
    await page.reload();
    await expect.poll(() => page.getByTestId('filter-project').inputValue()).toBe(CLOCK_PROJECT);
    expect(problems).toEqual([]);
  });

  it('a resumed session says what it copied and from whom; its copied call is marked, without a time', async () => {
    await go('#/s/7e2a9b4c-1d3f-4a6b-8c7d-3e1f5a2b9c22');
    const notice = page.getByTestId('copied-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(
      /^Resumed from Read notes\.txt and summarise it\. \(5d1f6c2a\): 1 of its tool calls and 1 response are copied/,
    );
    expect(await notice.locator('a').getAttribute('href')).toBe('#/s/5d1f6c2a-0b6e-4f7e-9a51-2f0c3a9d8e11');
    const badge = page.getByTestId('copied-badge');
    await badge.waitFor();
    expect(await badge.count()).toBe(1);
    expect(await page.getByTestId('call-duration').count()).toBe(0);
    await shot(page, 'session-copied', { fullPage: false });
    expect(problems).toEqual([]);
  });

  it("a model without a price is 'unknown' in the cost charts' tooltips, never $0.00", async () => {
    const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const usage = (await (
      await fetch(new URL(`api/usage?tz=${encodeURIComponent(tz)}`, server.url))
    ).json()) as UsageResponse;
    const short = (m: string) => m.replace(/^claude-/, '').replace(/-\d{8}$/, '');
    const day = usage.days.findIndex((d) => Object.values(d.models).some((m) => m.costUsd === null));
    // The corpus's and the samples' scripted models have no price; a home where every model is priced has no case.
    if (day === -1) return;
    await go('#/usage');
    const tipOf = async (card: string, x: number, y: number) => {
      await page.mouse.move(x, y);
      const tip = page.locator(`[data-testid=${card}] .recharts-tooltip-wrapper`);
      await expect.poll(async () => (await tip.textContent()) ?? '').not.toBe('');
      return (await tip.textContent()) ?? '';
    };
    // Each day is one band of the plot area: hover the middle of that day's band.
    // In view first: the test before may have left the page scrolled, and the pointer only reaches what is shown.
    const grid = page.locator('[data-testid=chart-usage-days] .recharts-cartesian-grid');
    await grid.waitFor();
    await grid.scrollIntoViewIfNeeded();
    const box = await grid.boundingBox();
    if (!box) throw new Error('the daily chart has no plot area');
    // The chart has a band for every day (week, month) from the first to the last (those without usage too).
    const buckets = dayBuckets(usage.days.map((d) => d.date).sort());
    const bands = buckets.keys;
    const band = bands.indexOf(buckets.keyOf(usage.days[day]?.date ?? ''));
    const bandWidth = box.width / bands.length;
    const dayTip = await tipOf('chart-usage-days', box.x + (band + 0.5) * bandWidth, box.y + box.height / 2);
    // The band at that day's place is that day's.
    expect(dayTip.startsWith(bands[band] ?? '?'), `${dayTip} (bands ${bands.length})`).toBe(true);
    for (const [model, m] of Object.entries(usage.days[day]?.models ?? {})) {
      if (m.costUsd === null) expect(dayTip).toContain(`${short(model)} : unknown`);
      else expect(dayTip).toMatch(new RegExp(`${short(model).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} : \\$`));
    }
    // A project with priced and unpriced models: what it costs, plus that some of it is unknown.
    const projects = usage.projects.slice(0, 12);
    const mixed = projects.findIndex((p) => p.costUsd !== null && p.unpricedModels.length > 0);
    if (mixed !== -1) {
      const projectsGrid = page.locator('[data-testid=chart-usage-projects] .recharts-cartesian-grid');
      await projectsGrid.scrollIntoViewIfNeeded();
      const plot = await projectsGrid.boundingBox();
      if (!plot) throw new Error('the projects chart has no plot area');
      const bandHeight = plot.height / projects.length;
      const tip = await tipOf('chart-usage-projects', plot.x + 20, plot.y + (mixed + 0.5) * bandHeight);
      expect(tip).toContain(`+ unknown (${projects[mixed]?.unpricedModels.join(', ')})`);
    }
    await settledShot('usage-unpriced-tooltip');
    expect(problems).toEqual([]);
  });

  it('sessions list: cost column sortable; the session header shows cost and the time bar', async () => {
    await go('#/');
    await page.getByTestId('session-row').first().waitFor();
    const header = page.locator('th', { hasText: 'Cost' });
    const byCost = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/sessions' && new URL(r.url()).searchParams.get('sort') === 'costUsd',
    );
    await header.click();
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    // The server orders the whole list by cost: the rows change once its answer is drawn (the list by start time
    // can also begin with a priced session, so its first cost tells nothing).
    const answer = (await (await byCost).json()) as SessionsResponse;
    const shown = () =>
      page.getByTestId('session-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-session')));
    await expect.poll(shown, { timeout: 15_000 }).toEqual(answer.sessions.map((r) => r.id));
    const costs = await page.getByTestId('session-cost').allTextContents();
    const values = costs.map((c) => (c.startsWith('$') ? Number.parseFloat(c.slice(1)) : -1));
    // The most expensive first, sessions with an unknown cost last.
    expect(values[0]).toBeGreaterThan(0);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    expect(costs.at(-1)).toBe('unknown');
    await settledShot('sessions-by-cost');
    await go(`#/s/${BIG}`);
    await page.getByTestId('session-cost').waitFor();
    expect(await page.locator('.session-head [data-testid="time-bar"]').count()).toBe(1);
    await settledShot('session-header-cost-time');
  });

  it("the Analytics page shows where the time went per project and per day, in the browser's days", async () => {
    const asked: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (r.url().includes('/api/usage')) asked.push(r.url());
    };
    page.on('request', onRequest);
    await go('#/analytics');
    const rows = page.locator('[data-testid="analytics-time-projects"] tbody tr');
    await rows.first().waitFor();
    await page.locator('[data-testid="analytics-time-days"] .recharts-bar-rectangle').first().waitFor();
    page.off('request', onRequest);
    const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(new URL(asked[0] ?? 'http://x/').searchParams.get('tz')).toBe(tz);
    const usage = (await (
      await fetch(new URL(`api/usage?tz=${encodeURIComponent(tz)}`, server.url))
    ).json()) as UsageResponse;
    expect(await rows.count()).toBe(Math.min(12, usage.time.byProject.length));
    await settledShot('analytics-time');
    // The table fits its card on a desk and on a phone (there the bar goes under the path): no row line crosses the
    // card's border, and the card does not scroll sideways.
    try {
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 844 });
        await rows.first().waitFor();
        const fit = await page.getByTestId('analytics-time-projects').evaluate((card) => ({
          over: (card.querySelector('table')?.getBoundingClientRect().right ?? 0) - card.getBoundingClientRect().right,
          scrolls: card.scrollWidth - card.clientWidth,
        }));
        expect(fit.over, `${width} px`).toBeLessThanOrEqual(0);
        expect(fit.scrolls, `${width} px`).toBeLessThanOrEqual(0);
      }
    } finally {
      await page.setViewportSize({ width: 1440, height: 1000 });
    }
  });

  it("the Analytics time chart's axis is a time axis: bars an hour apart stand farther apart than 5 minutes", async () => {
    await go('#/analytics');
    await page.getByLabel('Project', { exact: true }).selectOption(CLOCK_PROJECT);
    // The project's figures answered and drawn, its bars grown in (a busy machine: well over a poll's second).
    await idle(page);
    const chart = page.getByTestId('chart-time');
    await steady(page, '[data-testid=chart-time] .recharts-bar-rectangle path');
    await expect.poll(() => chart.textContent()).toContain('per 5 minutes');
    // The middle of each bar drawn (empty buckets draw none), once the bars have grown in.
    const centres = async () =>
      chart
        .locator('.recharts-bar-rectangle path')
        .evaluateAll((paths) =>
          paths.map((p) => p.getBoundingClientRect()).flatMap((r) => (r.height > 1 ? [r.x + r.width / 2] : [])),
        );
    await expect.poll(async () => (await centres()).length).toBe(3);
    const [at10, at1005, at1105] = (await centres()).sort((a, b) => a - b) as [number, number, number];
    expect(at1105 - at1005, `bars at ${at10}, ${at1005}, ${at1105}`).toBeGreaterThan(10 * (at1005 - at10));
    await settledShot('analytics-time-axis');
  });

  it(`the Waterfall of a ${BIG_CALLS.toLocaleString('en-US')}-call session: renders, zooms, pans, opens a call`, async () => {
    await go(`#/s/${BIG}/waterfall`);
    const canvas = page.getByTestId('waterfall-canvas');
    await expect.poll(() => canvas.getAttribute('data-calls'), { timeout: 30_000 }).toBe(String(BIG_CALLS));
    await settledShot('waterfall-10k-all');
    const box = await canvas.boundingBox();
    expect(box).not.toBeNull();
    if (!box) return;
    // Zoom in around the left part until single bars are wide, then find one under the pointer.
    await page.mouse.move(box.x + 260, box.y + 40);
    for (let i = 0; i < 14; i++) await page.mouse.wheel(0, -400);
    await settled(page);
    await settledShot('waterfall-10k-zoomed');
    // Drag to pan right and back.
    await page.mouse.move(box.x + 600, box.y + 40);
    await page.mouse.down();
    await page.mouse.move(box.x + 400, box.y + 40, { steps: 5 });
    await page.mouse.up();
    let hit = false;
    for (let x = box.x + 180; x < box.x + box.width && !hit; x += 6) {
      await page.mouse.move(x, box.y + 24 + 13);
      hit = (await page.getByTestId('waterfall-tip').count()) > 0;
    }
    expect(hit).toBe(true);
    const tip = await page.getByTestId('waterfall-tip').textContent();
    expect(tip).toMatch(/^(Read|Edit|Bash|Grep) · (ok|error) · /);
    await page.mouse.down();
    await page.mouse.up();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toMatch(/^#\/s\/[^?]+\?call=toolu_big_\d+$/);
    await page.getByTestId('timeline').waitFor();
    expect(problems).toEqual([]);
  });

  it('the Waterfall of a session with subagents: one lane per thread', async () => {
    const res = await fetch(new URL('api/sessions', server.url));
    const { sessions } = (await res.json()) as { sessions: { id: string; projectPath: string | null }[] };
    const withAgents = sessions.find((s) => s.projectPath?.endsWith('/proj/subagents'));
    expect(withAgents).toBeDefined();
    const w = (await (await fetch(new URL(`api/sessions/${withAgents?.id}/waterfall`, server.url))).json()) as {
      lanes: unknown[];
    };
    await go(`#/s/${withAgents?.id}/waterfall`);
    await idle(page);
    const canvas = page.getByTestId('waterfall-canvas');
    await expect.poll(() => canvas.getAttribute('data-lanes')).toBe(String(w.lanes.length));
    expect(w.lanes.length).toBeGreaterThan(1);
    await settledShot('waterfall-subagents');
    expect(problems).toEqual([]);
  });

  it("the Waterfall's line counts in words: '1 call', not '1 calls'", async () => {
    const res = await fetch(new URL('api/sessions?limit=200', server.url));
    const { sessions } = (await res.json()) as { sessions: { id: string; toolCalls: number }[] };
    const canvas = page.getByTestId('waterfall-canvas');
    // the first session whose waterfall draws one call (the list's count leaves out a resume's copies)
    let drawn = '';
    for (const s of sessions.filter((s) => s.toolCalls === 1).slice(0, 8)) {
      await go(`#/s/${s.id}/waterfall`);
      await idle(page);
      drawn = (await canvas.getAttribute('data-calls')) ?? '';
      if (drawn === '1') break;
    }
    expect(drawn).toBe('1');
    // before: '1 thread · 1 calls · …'
    await expect.poll(() => page.getByText(/^\d+ threads? · 1 call · /).count()).toBe(1);
    expect(problems).toEqual([]);
  });
});
