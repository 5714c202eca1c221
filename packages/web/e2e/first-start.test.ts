/**
 * End-to-end, first start: a server over an empty index in headless Chromium shows the build's progress and fills
 * its sessions list as files are read; a long list is paged and sorted by the server.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionsResponse } from '@agentdash/api';
import { agentInfos, agentLabels } from '@agentdash/core/base';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { type RunningServer, startServer } from '@agentdash/server';
import { assistantText, prompt, writeLines } from '@agentdash/testing/synthetic';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectChromium, e2eMissing, endConnectionWith } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');

const missing = e2eMissing();

/** Holds each file of the import until released. */
class Gate {
  private waiting: (() => void)[] = [];
  private arrived: (() => void) | undefined;
  private open = false;

  readonly hold = (): Promise<void> => {
    if (this.open) return Promise.resolve();
    return new Promise<void>((go) => {
      this.waiting.push(go);
      this.arrived?.();
    });
  };

  async next(): Promise<void> {
    while (this.waiting.length === 0) await new Promise<void>((r) => (this.arrived = r));
  }

  releaseOne(): void {
    this.waiting.shift()?.();
  }

  releaseAll(): void {
    this.open = true;
    for (const go of this.waiting.splice(0)) go();
  }
}

const rowCount = (page: Page) => page.locator('[data-testid=session-row]').count();

describe.skipIf(missing !== undefined)('first start in headless Chromium', () => {
  let tmp: string;
  let context: BrowserContext;
  let index: AgentIndex | undefined;
  let server: RunningServer | undefined;
  const problems: string[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-e2e-first-'));
    const browser = await connectChromium();
    context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    endConnectionWith(context, browser);
  });
  afterEach(async () => {
    await server?.close();
    index?.close();
    server = undefined;
    index = undefined;
  });
  afterAll(async () => {
    await context?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  const newPage = async () => {
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    return page;
  };

  it('shows the build progress live and fills the list as files are read', async () => {
    const home = join(tmp, 'home');
    await cp(samples, home, { recursive: true });
    index = openIndex({ dbPath: join(tmp, 'first.sqlite') });
    const gate = new Gate();
    server = await startServer({ index, paths: [home], host: '127.0.0.1', port: 0, beforeFile: gate.hold });
    await gate.next();
    const page = await newPage();
    await page.goto(server.url);
    await page.waitForSelector('[data-testid=index-progress]');
    expect(await page.textContent('[data-testid=index-progress-count]')).toMatch(/^0 of \d+ files$/);
    expect(await rowCount(page)).toBe(0);
    expect(await page.textContent('.empty')).toContain('Indexing');

    for (let n = 0; n < 12; n++) {
      gate.releaseOne();
      await gate.next();
    }
    await page.waitForFunction(
      () => document.querySelector('[data-testid=index-progress-count]')?.textContent?.startsWith('12 of '),
      undefined,
      { timeout: 10_000 },
    );
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=session-row]').length > 0, undefined, {
      timeout: 10_000,
    });
    const midway = await rowCount(page);
    const bar = page.locator('[role=progressbar]');
    const percent = Number(await bar.getAttribute('aria-valuenow'));
    expect(percent).toBeGreaterThan(0);
    expect(percent).toBeLessThan(100);

    gate.releaseAll();
    const report = await server.indexed;
    await page.waitForSelector('[data-testid=index-progress]', { state: 'detached', timeout: 10_000 });
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid=session-row]').length === n,
      report?.sessions,
      { timeout: 10_000 },
    );
    expect(report?.sessions).toBeGreaterThan(midway);
    await page.close();
    expect(problems).toEqual([]);
  });

  it("says when the sessions shown are the bundled samples, and how to show one's own", async () => {
    const notices: (string | null)[] = [];
    for (const samplesShown of [true, false]) {
      index = openIndex({ dbPath: join(tmp, `samples-${samplesShown}.sqlite`) });
      server = await startServer({ index, paths: [samples], host: '127.0.0.1', port: 0, samples: samplesShown });
      await server.indexed;
      const page = await newPage();
      const health = page.waitForResponse((r) => r.url().endsWith('/api/health'));
      await page.goto(server.url);
      await health;
      await page.waitForSelector('[data-testid=session-row]');
      if (samplesShown) await page.waitForSelector('[data-testid=samples-notice]');
      // Two frames after the health answer: React has drawn what it says.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const notice = page.locator('[data-testid=samples-notice]');
      notices.push((await notice.count()) === 0 ? null : await notice.textContent());
      await page.close();
      await server.close();
      index.close();
      server = undefined;
      index = undefined;
    }
    expect(notices).toEqual([
      `Sample sessions — point AgentDash at your own with npm start -- PATH or agentdash serve PATH, PATH being a ${agentLabels()} home or a folder in one.Where each agent keeps its sessions${agentInfos.map((a) => `${a.label}: ${a.homes}`).join('')}`,
      null,
    ]);
    expect(problems).toEqual([]);
  });

  it('pages a long list from the server and sorts it there', async () => {
    const home = join(tmp, 'many');
    const SESSIONS = 320;
    for (let i = 0; i < SESSIONS; i++) {
      const id = `${String(i).padStart(8, '0')}-aaaa-4bbb-8ccc-dddddddddddd`;
      const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
      const base = { sessionId: id, timestamp: at, cwd: '/home/user/proj/many' };
      writeLines(join(home, 'projects', '-home-user-proj-many', `${id}.jsonl`), [
        prompt(
          { ...base, uuid: `${id.slice(0, 8)}-0000-4000-8000-000000000001` },
          `Task number ${String(i).padStart(3, '0')}`,
        ),
        assistantText(
          {
            ...base,
            uuid: `${id.slice(0, 8)}-0000-4000-8000-000000000002`,
            parentUuid: `${id.slice(0, 8)}-0000-4000-8000-000000000001`,
          },
          `msg_${i}`,
          'Done.',
        ),
      ]);
    }
    index = openIndex({ dbPath: join(tmp, 'many.sqlite') });
    server = await startServer({ index, paths: [home], host: '127.0.0.1', port: 0 });
    await server.indexed;
    const page = await newPage();
    await page.goto(server.url);
    await page.waitForSelector('[data-testid=session-row]');
    expect(await rowCount(page)).toBe(150);
    // newest first: the last generated session leads
    expect(await page.locator('[data-testid=session-row]').first().getAttribute('data-session')).toBe(
      `${String(SESSIONS - 1).padStart(8, '0')}-aaaa-4bbb-8ccc-dddddddddddd`,
    );
    await page.click('[data-testid=show-more]');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=session-row]').length === n, SESSIONS);
    const shown = await page
      .locator('[data-testid=session-row]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-session')));
    expect(new Set(shown).size).toBe(SESSIONS);
    expect(await page.locator('[data-testid=show-more]').count()).toBe(0);

    // a search asks for a smaller first page (a team server cuts each row's snippet), then more on request
    await page.fill('[data-testid=search]', 'task');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=session-row]').length === 50);
    await page.locator('[data-testid=search-snippet]').first().waitFor();
    await page.click('[data-testid=show-more]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=session-row]').length === 150);
    await page.fill('[data-testid=search]', '');
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid=session-row]').length === 150 &&
        document.querySelector('[data-testid=search-snippet]') === null,
    );

    // sort by title, ascending: the server orders all 320, the first page starts at the lowest title
    await page.click('th:has-text("Session")');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=session-row] .session-title a')?.textContent === 'Task number 000',
      undefined,
      { timeout: 10_000 },
    );
    await page.click('[data-testid=session-row] .session-title a');
    await page.waitForFunction(() => document.body.textContent?.includes('Done.'), undefined, { timeout: 10_000 });
    expect(await page.textContent('[data-testid=session-title]')).toBe('Task number 000');
    const api = (await (
      await fetch(`${server.url}api/sessions?sort=title&dir=asc&limit=5`)
    ).json()) as SessionsResponse;
    expect(api.total).toBe(SESSIONS);
    expect(api.sessions.map((s) => s.title)).toEqual([0, 1, 2, 3, 4].map((i) => `Task number 00${i}`));
    await page.close();
    expect(problems).toEqual([]);
  });
});
