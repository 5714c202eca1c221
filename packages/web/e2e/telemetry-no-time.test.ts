/**
 * End-to-end, a session known only from telemetry whose records carry no time (OpenTelemetry's `timeUnixNano`
 * and `observedTimeUnixNano` absent or 0: an exporter that leaves them out). Its start and its calls' clock times
 * are unknown, and every page says so ("—"), never the epoch: the list's telemetry-only row read "Jan 1, 1970" and
 * its page's calls "00:00:00".
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { otelFixtureDir, readRecording, withoutOtlpTimes } from '@agentdash/testing/otel-recordings';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eMissing, idle, openChromium, type ServedIndex, serveIndexOf } from './harness';
import { shot } from './shots';

const recording = join(otelFixtureDir, '2.1.332-json');
/** The shell scenario: Bash calls, one of them failing. */
const SESSION = '38ec88f3-0d58-4209-9ff9-b12b8004928d';

const missing = e2eMissing();

/** The page's text, and what of it reads as a date of 1970 or as the epoch's clock. */
const epochText = (page: Page) =>
  page.evaluate(() => {
    const text = document.body.innerText;
    return text.split('\n').filter((line) => /1970|Jan 1,? 00:00|\b00:00:00\b/.test(line));
  });

describe.skipIf(missing !== undefined)('a telemetry-only session without times, in headless Chromium', () => {
  let home: string;
  let served: ServedIndex;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'agentdash-e2e-otel-no-time-'));
    await mkdir(join(home, 'projects'), { recursive: true });
    served = await serveIndexOf('agentdash-e2e-otel-no-time-', [home], { otlpPort: 0 });
    const otlp = served.server.otlp;
    if (otlp === undefined || !('endpoint' in otlp)) throw new Error('the OTLP receiver is not listening');
    for (const request of readRecording(recording).filter((r) => r.contentType === 'application/json')) {
      const body = JSON.stringify(withoutOtlpTimes(JSON.parse(new TextDecoder().decode(request.body))));
      const response = await fetch(`${otlp.endpoint}${request.path}`, {
        method: 'POST',
        headers: { 'content-type': request.contentType },
        body,
      });
      await response.arrayBuffer();
      expect(response.status).toBe(200);
    }
    ({ context, page } = await openChromium({ problems, consoleErrors: false }));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await served?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('shows its unknown times as "—" on the list, its page, Usage and Analytics, never 1970', async () => {
    const found: string[] = [];
    await page.goto(served.server.url);
    const row = page.locator(`[data-testid=telemetry-only-row][data-session="${SESSION}"]`);
    await row.waitFor({ timeout: 15_000 });
    await idle(page);
    await shot(page, 'telemetry-no-time-list');
    for (const line of await epochText(page)) found.push(`list: ${line}`);
    const started = await row.getByTestId('telemetry-started').allTextContents();
    if (started.join() !== '—') found.push(`list: started ${JSON.stringify(started)}`);

    await row.locator('a').click();
    await page.locator('[data-testid=telemetry-step]').first().waitFor({ timeout: 15_000 });
    await idle(page);
    await shot(page, 'telemetry-no-time-session');
    for (const line of await epochText(page)) found.push(`session: ${line}`);
    const times = [...new Set(await page.getByTestId('telemetry-step-time').allTextContents())];
    if (times.join() !== '—') found.push(`session: step times ${JSON.stringify(times)}`);

    for (const hash of ['#/usage', '#/analytics']) {
      await page.goto(new URL(hash, served.server.url).toString());
      await page.waitForSelector('.page');
      await idle(page);
      await shot(page, `telemetry-no-time-${hash.slice(2)}`);
      for (const line of await epochText(page)) found.push(`${hash}: ${line}`);
    }
    expect(found).toEqual([]);
    expect(problems).toEqual([]);
  });
});
