/**
 * End-to-end, a session that takes long to open (the server reads a transcript of hundreds of MB first): the header
 * comes at once, and until the events and the errors come the page says it is reading the transcript and counts the
 * header's errors, instead of empty rows and "No errors". The wait is made by holding the API's answers in Chromium.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionErrorsResponse, SessionsResponse } from '@agentdash/api';
import type { Browser, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChromium, e2eMissing, type ServedIndex, serveIndexOf } from './harness';
import { shot } from './shots';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');

const missing = e2eMissing();

describe.skipIf(missing !== undefined)('a session slow to open, in headless Chromium', () => {
  let served: ServedIndex;
  let browser: Browser;

  beforeAll(async () => {
    served = await serveIndexOf('agentdash-e2e-slow-', [samples]);
    browser = await connectChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('says it is reading the transcript and counts the errors until the events come', async () => {
    const { server } = served;
    const list = (await (await fetch(new URL('api/sessions?limit=1000', server.url))).json()) as SessionsResponse;
    const row = list.sessions.find((r) => r.errors > 0 && r.toolCalls > 0);
    if (!row) throw new Error('no sample session has errors');
    const id = encodeURIComponent(row.id);
    const { errors } = (await (
      await fetch(new URL(`api/sessions/${id}/errors`, server.url))
    ).json()) as SessionErrorsResponse;

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    // The events and the errors are held (as while the server reads a large transcript) until released.
    const held: Route[] = [];
    let release = false;
    await page.route(/\/api\/sessions\/[^/]+\/(events|errors)/, (route) => {
      if (release) void route.continue();
      else held.push(route);
    });
    await page.goto(new URL(`#/s/${id}`, server.url).toString());
    await page.waitForSelector('[data-testid=session-reading]', { timeout: 10_000 });
    const position = page.locator('[data-testid=error-position]');
    // the header's errors, the expected ones apart (as the header counts them)
    const real = row.errors - row.expectedErrors;
    expect(await position.textContent()).toBe(`${real} ${real === 1 ? 'error' : 'errors'}…`);
    expect(await page.locator('[data-testid=session-reading]').textContent()).toContain('tool calls');
    expect(await page.locator('[data-testid=next-error]').isDisabled()).toBe(true);
    await shot(page, 'ui-session-reading');

    release = true;
    for (const route of held.splice(0)) await route.continue();
    await page.waitForSelector('[data-testid=event-row]', { timeout: 10_000 });
    await page.waitForSelector('[data-testid=session-reading]', { state: 'detached', timeout: 10_000 });
    const listed = errors.filter((e) => e.severity !== 'expected').length;
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid=error-position]')?.textContent === text,
      `${listed} ${listed === 1 ? 'error' : 'errors'}`,
      { timeout: 10_000 },
    );
    expect(await page.locator('[data-testid=next-error]').isDisabled()).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('says so when the events or the errors cannot be had, instead of waiting on', async () => {
    const { server } = served;
    const list = (await (await fetch(new URL('api/sessions?limit=1000', server.url))).json()) as SessionsResponse;
    const row = list.sessions.find((r) => r.errors > 0 && r.toolCalls > 0);
    if (!row) throw new Error('no sample session has errors');
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.route(/\/api\/sessions\/[^/]+\/(events|errors)/, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"error":"disk on fire"}' }),
    );
    await page.goto(new URL(`#/s/${encodeURIComponent(row.id)}`, server.url).toString());
    await page.waitForSelector('[data-testid=session-events-error]', { timeout: 10_000 });
    expect(await page.locator('[data-testid=session-events-error]').textContent()).toContain('disk on fire');
    expect(await page.locator('[data-testid=session-reading]').count()).toBe(0);
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid=error-position]')?.textContent === text,
      `${row.errors - row.expectedErrors} ${row.errors - row.expectedErrors === 1 ? 'error' : 'errors'}`,
      { timeout: 10_000 },
    );
    expect(await page.locator('[data-testid=next-error]').isDisabled()).toBe(true);
    await context.close();
  }, 60_000);

  it('fills the timeline when the first answer for its events fails or comes back empty', async () => {
    const { server } = served;
    const list = (await (await fetch(new URL('api/sessions?limit=1000', server.url))).json()) as SessionsResponse;
    const row = list.sessions.find((r) => r.toolCalls > 0);
    if (!row) throw new Error('no sample session has tool calls');
    for (const first of ['busy', 'empty'] as const) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      // The first answer is held until the placeholder rows are drawn and measured, so that nothing but the
      // loader itself asks for the page again.
      let answered = 0;
      const hold: { route?: Route } = {};
      await page.route(/\/api\/sessions\/[^/]+\/events/, (route) => {
        if (answered++ > 0) return route.continue();
        hold.route = route;
      });
      await page.goto(new URL(`#/s/${encodeURIComponent(row.id)}`, server.url).toString());
      await page.waitForSelector('.ev-placeholder', { timeout: 20_000 });
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const held = hold.route;
      if (!held) throw new Error('no events request was made');
      if (first === 'busy')
        await held.fulfill({ status: 503, contentType: 'application/json', body: '{"success":false,"error":"busy"}' });
      else {
        const response = await held.fetch();
        const body = (await response.json()) as { events: unknown[] };
        await held.fulfill({ response, json: { ...body, events: [] } });
      }
      await page.waitForSelector('[data-testid=event-row] [data-testid]', { timeout: 20_000 });
      expect(answered, first).toBeGreaterThan(1);
      await context.close();
    }
  }, 60_000);
});
