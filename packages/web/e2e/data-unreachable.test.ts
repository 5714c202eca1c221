/**
 * End-to-end: pages opened while their data cannot be had (the server stopped, or restarting). The sessions list,
 * Analytics and Usage say it could not be loaded, and nothing else of the data they do not have: before, the list's
 * summary kept saying "Loading…" under the error; under "Could not load statistics" the error charts read
 * "No errors." and the tools used "0"; Usage's charts read "No usage." and its 5-hour block "no active block"; the charts of calls drew empty axes. A
 * session whose later events cannot be had says so above its timeline: before, their rows shimmered as placeholders
 * without a word.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assistantText, basesOf, prompt, type RecordBase, writeLines } from '@agentdash/testing/synthetic';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChromium, e2eMissing, newPage, type ServedIndex, servedHome, serveIndexOf } from './harness';
import { revisit } from './samples-ui';
import { shot } from './shots';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');

const missing = e2eMissing();

/** The text of each element of `selector`, in order. */
const textsOf = (page: Page, selector: string) => page.locator(selector).allTextContents();

describe.skipIf(missing !== undefined)('pages whose data cannot be had, in headless Chromium', () => {
  let served: ServedIndex;
  let browser: Browser;

  beforeAll(async () => {
    served = await serveIndexOf('agentdash-e2e-unreachable-', [samples]);
    browser = await connectChromium();
  });

  afterAll(async () => {
    await shared?.context.close();
    await browser?.close();
    await served?.close();
  });

  // The list, Analytics and Usage are opened in one page, each a view that never had its data (a page load costs
  // Chromium several visits within the page); each test refuses its own requests and allows them again after.
  let shared: { context: BrowserContext; page: Page } | undefined;
  const opened = async (hash: string, refused: RegExp): Promise<Page> => {
    shared ??= await newPage(browser);
    const { page } = shared;
    await page.route(refused, (route) => route.abort('connectionrefused'));
    await revisit(page, new URL(hash, served.server.url).toString());
    return page;
  };

  it('the sessions list says its sessions could not be loaded, and no longer that they are loading', async () => {
    const refused = /\/api\/sessions(\?|$)/;
    const page = await opened('#/', refused);
    await page.getByText('Could not load sessions').waitFor({ timeout: 15_000 });
    await shot(page, 'ui-sessions-unreachable');
    expect(await page.getByTestId('sessions-summary').textContent()).toBe('Not loaded.');
    await page.unroute(refused);
  });

  it('Back to the list while the server is down keeps the sessions last shown, says so, and recovers', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(new URL('#/', served.server.url).toString());
    const rows = page.getByTestId('session-row');
    await rows.first().waitFor({ timeout: 15_000 });
    const ids = async () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-session')));
    const shown = await ids();
    expect(shown.length).toBeGreaterThan(1);
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.locator('.cards .metric-value').first().waitFor({ timeout: 15_000 });
    // the server stops: every request of the page fails as a refused connection
    await page.route(/\/api\//, (route) => route.abort('connectionrefused'));
    await page.goBack();
    const note = page.getByTestId('list-unreachable');
    await note.waitFor({ timeout: 15_000 });
    await shot(page, 'ui-sessions-back-unreachable');
    expect(await note.textContent()).toMatch(/^The AgentDash server cannot be reached: /);
    expect(await ids()).toEqual(shown);
    expect(await page.getByTestId('sessions-summary').textContent()).toMatch(/^\d+ sessions · /);
    // the server is back: the list asks again by itself and the note goes
    await page.unroute(/\/api\//);
    await note.waitFor({ state: 'detached', timeout: 15_000 });
    expect(await ids()).toEqual(shown);
    await context.close();
  });

  it('Analytics says its statistics could not be loaded, and no chart says "No errors."', async () => {
    const refused = /\/api\/stats(\?|$)/;
    const page = await opened('#/analytics', refused);
    await page.getByText('Could not load statistics').waitFor({ timeout: 15_000 });
    await shot(page, 'ui-analytics-unreachable');
    expect(await textsOf(page, '[data-testid=chart-error-rate] .empty')).toEqual(['Not loaded.']);
    expect(await textsOf(page, '[data-testid=chart-categories] .empty')).toEqual(['Not loaded.']);
    // nor do the charts of calls draw empty axes
    for (const chart of ['chart-tools', 'chart-durations', 'chart-time', 'chart-projects'])
      expect(await textsOf(page, `[data-testid=${chart}] .empty`), chart).toEqual(['Not loaded.']);
    expect(await textsOf(page, '.cards .metric-value')).toEqual(['—', '—', '—', '—']);
    await page.unroute(refused);
  });

  it('Usage says its usage could not be loaded, and no chart nor card says there is none', async () => {
    const refused = /\/api\/usage(\?|$)/;
    const page = await opened('#/usage', refused);
    await page.getByText('Could not load usage').waitFor({ timeout: 15_000 });
    await shot(page, 'ui-usage-unreachable');
    expect(await textsOf(page, '[data-testid=chart-usage-days] .empty')).toEqual(['Not loaded.']);
    expect(await textsOf(page, '[data-testid=chart-usage-projects] .empty')).toEqual(['Not loaded.']);
    expect(await textsOf(page, '.cards .metric-note')).toEqual(['— API responses', '', '', '']);
    await page.unroute(refused);
  });
});

/** A session of 250 answers: three pages of events (a page is 100). */
const long = '0c97beba-0000-4000-8000-0000000000e5';
function writeLong(home: string): void {
  const base = basesOf(long);
  const at = (uuid: string, parent: string | null, second: number): RecordBase => ({
    ...base(uuid, parent, 0),
    timestamp: new Date(Date.UTC(2026, 0, 2, 10, 0, second)).toISOString(),
  });
  const lines = [prompt(at('u0', null, 0), 'Answer 250 times.')];
  for (let i = 1; i <= 250; i++)
    lines.push(assistantText(at(`a${i}`, i === 1 ? 'u0' : `a${i - 1}`, i), `msg_${i}`, `Answer ${i}.`));
  writeLines(join(home, 'projects', '-home-user-proj-long', `${long}.jsonl`), lines);
}

describe.skipIf(missing !== undefined)('a session whose later events cannot be had, in headless Chromium', () => {
  const ui = servedHome('agentdash-e2e-unreachable-events-', (home) => {
    writeLong(home);
    return undefined;
  });

  it('says so above its timeline, and fills their rows once they come', async () => {
    const { context, page } = await newPage(ui.browser);
    let down = true;
    // the first page comes; the later ones are refused until the server is back
    await page.route(/\/api\/sessions\/[^/]+\/events\?/, (route) => {
      const offset = Number(new URL(route.request().url()).searchParams.get('offset'));
      return down && offset >= 100 ? route.abort('connectionrefused') : route.continue();
    });
    await page.goto(new URL(`#/s/${long}`, ui.served.server.url).toString());
    await page.getByText('Answer 1.', { exact: true }).waitFor({ timeout: 30_000 });
    await page.locator('body').press('G');
    const notice = page.getByTestId('session-page-error');
    await notice.waitFor({ timeout: 15_000 });
    await shot(page, 'ui-session-page-unreachable');
    expect(await notice.textContent()).toMatch(/^Some events of this session could not be loaded: /);
    down = false;
    await page.getByText('Answer 250.', { exact: true }).waitFor({ timeout: 15_000 });
    await notice.waitFor({ state: 'detached', timeout: 15_000 });
    await context.close();
  });
});
