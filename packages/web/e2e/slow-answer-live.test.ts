/**
 * End-to-end: a page whose answer takes longer than the live reloads' spacing, while an agent writes. Each live
 * change aborted the request on its way and asked again, so a search slower than a second (a large home) or a Usage
 * answer slower than five never came for as long as the agent wrote: the list kept its rows without excerpts. A live
 * change now asks once more after the answer on its way.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eMissing, newPage, servedHome } from './harness';

const missing = e2eMissing();
const LIVE = '5e0a11ee-0000-4000-8000-0000000000a1';

/** Delays the answers of the API requests whose address `matches` by `ms`; counts those the page gave up. */
async function slowAnswers(page: Page, matches: (url: URL) => boolean, ms: number): Promise<{ aborted: number }> {
  const seen = { aborted: 0 };
  await page.route('**/api/**', async (route) => {
    if (!matches(new URL(route.request().url()))) return route.continue();
    await new Promise((done) => setTimeout(done, ms));
    await route.continue().catch(() => undefined);
  });
  page.on('requestfailed', (r) => {
    if (matches(new URL(r.url()))) seen.aborted++;
  });
  return seen;
}

describe.skipIf(missing !== undefined)('a slow answer while an agent writes, in headless Chromium', () => {
  let liveFile = '';
  const ui = servedHome('agentdash-e2e-slow-live-', (home) => {
    const project = join(home, 'projects', '-home-user-proj-demo');
    const at = basesOf('5e0a11ee-0000-4000-8000-0000000000a0');
    writeLines(join(project, '5e0a11ee-0000-4000-8000-0000000000a0.jsonl'), [
      prompt(at('u1', null, 1), 'Why do the snapshots fail?'),
      assistantText(at('a1', 'u1', 2), 'msg_1', 'The snapshots were written on another platform.'),
    ]);
    liveFile = join(project, `${LIVE}.jsonl`);
    writeLines(liveFile, [prompt(basesOf(LIVE)('l0', null, 1), 'Keep working')]);
    return undefined;
  });
  let writing: NodeJS.Timeout | undefined;
  afterEach(() => clearInterval(writing));

  /** An agent appending a prompt to its transcript every 300 ms: the server says the sessions changed. */
  const agentWrites = () => {
    let n = 0;
    writing = setInterval(() => {
      n++;
      appendFileSync(liveFile, `${prompt(basesOf(LIVE)(`l${n}`, `l${n - 1}`, 2), `step ${n}`)}\n`);
    }, 300);
  };

  it('shows a search that takes 2.5 s, its excerpts included', async () => {
    const { context, page } = await newPage(ui.browser);
    const search = await slowAnswers(page, (u) => u.pathname === '/api/sessions' && u.searchParams.has('q'), 2_500);
    await page.goto(new URL('#/', ui.served.server.url).toString());
    await page.getByTestId('session-row').first().waitFor();
    agentWrites();
    await page.goto(new URL('#/?q=snapshots', ui.served.server.url).toString());
    await page.getByTestId('search-snippet').first().waitFor({ timeout: 12_000 });
    expect(await page.getByTestId('search-snippet').first().textContent()).toContain('snapshots');
    expect(search.aborted).toBe(0);
    await context.close();
  });

  it('shows a Usage answer that takes 6 s', async () => {
    const { context, page } = await newPage(ui.browser);
    const usage = await slowAnswers(page, (u) => u.pathname === '/api/usage', 6_000);
    agentWrites();
    await page.goto(new URL('#/usage', ui.served.server.url).toString());
    await expect
      .poll(() => page.getByTestId('usage-total-cost').textContent(), { timeout: 20_000, interval: 250 })
      .not.toBe('—');
    expect(usage.aborted).toBe(0);
    await context.close();
  });
});
