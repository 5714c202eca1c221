/**
 * End-to-end: reasoning tokens (Gemini thoughts) shown on their own on the Usage page and in the session header, in
 * Debian's headless Chromium over a real server and index of the bundled Gemini 0.61 fixtures.
 * Skips plainly when Chromium or the built dashboard is missing.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UsageResponse } from '@agentdash/api';
import { formatCompact } from '@agentdash/core/present';
import type { RunningServer } from '@agentdash/server';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eMissing, openChromium, type ServedIndex, serveIndexOf } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const gemini = resolve(here, '../../core/test/fixtures/gemini/0.61.0/.gemini');

const missing = e2eMissing();

describe.skipIf(missing !== undefined)('reasoning tokens in headless Chromium', () => {
  let served: ServedIndex;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    served = await serveIndexOf('agentdash-e2e-reasoning-', [gemini]);
    server = served.server;
    ({ context, page } = await openChromium());
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await served?.close();
  });

  it('the Usage page shows the reasoning part of the output, as the API counts it', async () => {
    const usage = (await (await fetch(new URL('api/usage', server.url))).json()) as UsageResponse;
    expect(usage.totals.reasoningOutputTokens).toBeGreaterThan(0);
    await page.goto(new URL('#/usage', server.url).toString());
    const note = page.locator('[data-testid=usage-reasoning]');
    await note.waitFor({ timeout: 15_000 });
    expect((await note.innerText()).trim()).toBe(
      `(of which reasoning ${formatCompact(usage.totals.reasoningOutputTokens)})`,
    );
  });
});
