/**
 * What the dashboard's end-to-end tests share: whether they can run here, contexts of the run's headless Chromium
 * (./browser-server.ts) whose page errors and console errors are collected, and the waits for a page's state (`idle`,
 * `settled`, `steady`, `scrolledToEnd`): a test waits for what it needs, never for a fixed time.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { type RunningServer, startServer } from '@agentdash/server';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { type Browser, type BrowserContext, chromium, type Locator, type Page, type Request } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium';

export { CHROMIUM };

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/index.html');

/**
 * The theme's colours `names` (custom properties) as the page computes them, `rgb(…)`: the theme writes them as
 * `light-dark()`, which only an element's colour resolves (a hidden probe's, as the dashboard's `cssColor`).
 */
export async function themeColours(page: Page, names: readonly string[]): Promise<Record<string, string>> {
  return page.evaluate((list) => {
    const probe = document.body.appendChild(document.createElement('span'));
    probe.style.setProperty('transition', 'none', 'important');
    const out = Object.fromEntries(
      list.map((name) => {
        probe.style.color = `var(${name})`;
        return [name, getComputedStyle(probe).color];
      }),
    );
    probe.remove();
    return out;
  }, names);
}

/**
 * Scroll a timeline row's element into view. The timeline is virtualized: while it measures rows (a jump to a call
 * settles over a few frames) a row can be unmounted and mounted again, and Playwright's scroll fails on the element it
 * had found ("not attached to the DOM") instead of finding it again. The locator is resolved again then.
 */
export async function scrollToRow(locator: Locator, tries = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await locator.scrollIntoViewIfNeeded({ timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt >= tries || !/not attached/i.test(String(error))) throw error;
    }
  }
}

/** Why this machine cannot run the e2e tests (no Chromium, the dashboard not built), said once; else undefined. */
export function e2eMissing(label = 'e2e'): string | undefined {
  const missing = !existsSync(CHROMIUM)
    ? `${CHROMIUM} is not installed (apt-get install chromium)`
    : !existsSync(dist)
      ? 'the dashboard is not built (npm run build -w @agentdash/web)'
      : undefined;
  if (missing) console.log(`[${label}] skipped: ${missing}`);
  return missing;
}

/**
 * A connection to this worker's Chromium (started once per run by the project's global setup, one per worker), or a
 * Chromium of its own when the file runs without it; `close()` ends the connection (or that browser), never the run's
 * browser.
 */
export async function connectChromium(): Promise<Browser> {
  const endpoints = inject('chromiumEndpoints') ?? [];
  const worker = Number(process.env.VITEST_POOL_ID) || 1;
  const endpoint = endpoints[(worker - 1) % Math.max(1, endpoints.length)];
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
}

/**
 * Make `context.close()` end the connection to `browser` once the context is closed (not on its 'close' event: ending
 * the connection there loses the answer to the close request, which then fails).
 */
export function endConnectionWith(context: BrowserContext, browser: Browser): void {
  const close = context.close.bind(context);
  context.close = async (options) => {
    try {
      await close(options);
    } finally {
      await browser.close();
    }
  };
}

/** What a page of a test opens with: its viewport and colour scheme, and where its errors go. */
export interface PageOptions {
  readonly viewport?: { width: number; height: number };
  readonly colorScheme?: 'dark' | 'light';
  /** Page errors and console errors go here when given (a test then expects it empty). */
  readonly problems?: string[];
  /** Console errors too (default), or page errors only (a test that loads what is expected to fail). */
  readonly consoleErrors?: boolean;
}

/** A new context of `browser` (nothing shared with other contexts) and its first page. */
export async function newPage(
  browser: Browser,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1440, height: 1000 },
    // Nothing pulses or shimmers (the dashboard honours "reduce motion"): what a test reads and draws holds still.
    reducedMotion: 'reduce',
    ...(options.colorScheme ? { colorScheme: options.colorScheme } : {}),
  });
  const page = await context.newPage();
  watchRequests(page);
  const problems = options.problems;
  if (problems) {
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    if (options.consoleErrors !== false) {
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
    }
  }
  return { context, page };
}

/** The requests of each watched page still waiting for their answer (a stream that stays open is not counted). */
const pending = new WeakMap<Page, Set<Request>>();

/** Count `page`'s requests in flight from now on (`newPage` does it for every page it opens), for `idle`. */
export function watchRequests(page: Page): void {
  if (pending.has(page)) return;
  const open = new Set<Request>();
  pending.set(page, open);
  page.on('request', (request) => {
    if (request.resourceType() !== 'eventsource') open.add(request);
  });
  const done = (request: Request) => open.delete(request);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
}

/**
 * Layout settled: the fonts loaded and two animation frames drawn since, so what a style, size or state change moved
 * is laid out and painted.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  });
}

/**
 * A page's API calls answered and what they brought drawn: no request of the page in flight (its live event stream
 * aside), then the layout settled, and still none in flight (a render can ask for more: then it waits again).
 */
export async function idle(page: Page, timeout = 30_000): Promise<void> {
  const open = pending.get(page);
  if (!open) throw new Error('idle: the page was not opened by newPage (watchRequests)');
  const until = Date.now() + timeout;
  for (;;) {
    while (open.size > 0) {
      const left = until - Date.now();
      if (left <= 0) throw new Error(`idle: ${[...open].map((r) => r.url()).join(', ')} still in flight`);
      // The next answer finished or failed (the listeners are added in the same turn as the size was read).
      await new Promise<void>((resolve) => {
        const end = () => {
          clearTimeout(timer);
          page.off('requestfinished', end).off('requestfailed', end);
          resolve();
        };
        const timer = setTimeout(end, left);
        page.on('requestfinished', end).on('requestfailed', end);
      });
    }
    await settled(page);
    if (open.size === 0) return;
  }
}

/**
 * Moves over: the boxes of the elements `selector` finds stay the same over three animation frames in a row (rows
 * measured, bars grown in). A highlight's colour fading or a live dot's pulse moves no box and is not waited for.
 */
export async function steady(page: Page, selector: string, timeout = 30_000): Promise<void> {
  await settled(page);
  const token = Math.random().toString(36).slice(2);
  await page.waitForFunction(
    ([sel, token]) => {
      const state = window as unknown as Record<string, { key: string; same: number } | undefined>;
      const key = JSON.stringify(
        [...document.querySelectorAll(sel)].map((e) => {
          const r = e.getBoundingClientRect();
          return [r.x, r.y, r.width, r.height];
        }),
      );
      const before = state[token];
      const now = { key, same: before?.key === key ? before.same + 1 : 0 };
      state[token] = now;
      return now.same >= 3;
    },
    [selector, `__steady_${token}`] as const,
    { polling: 'raf', timeout },
  );
}

/**
 * Scroll `selector`'s element to its end until it stays there: at the bottom, its height unchanged over three animation
 * frames in a row (a virtualized list measures the rows it mounts at the end and grows as it does).
 */
export async function scrolledToEnd(page: Page, selector: string, timeout = 30_000): Promise<void> {
  const token = `__end_${Math.random().toString(36).slice(2)}`;
  await page.waitForFunction(
    ([sel, token]) => {
      const el = document.querySelector(sel);
      if (!el) return false;
      el.scrollTo(0, el.scrollHeight);
      const state = window as unknown as Record<string, { height: number; same: number } | undefined>;
      const before = state[token];
      const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
      const now = { height: el.scrollHeight, same: atEnd && before?.height === el.scrollHeight ? before.same + 1 : 0 };
      state[token] = now;
      return now.same >= 3;
    },
    [selector, token] as const,
    { polling: 'raf', timeout },
  );
}

/** `newPage` in the run's headless Chromium; closing the context ends the connection too. */
export async function openChromium(options: PageOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const browser = await connectChromium();
  const opened = await newPage(browser, options);
  endConnectionWith(opened.context, browser);
  return opened;
}

/**
 * A temporary folder, an index of `paths` in it (a copy of the run's index of read-only homes, refreshed), and a
 * server over them on a free port of 127.0.0.1.
 */
export interface ServedIndex {
  readonly tmp: string;
  readonly index: AgentIndex;
  readonly server: RunningServer;
  /** Stop the server, close the index and remove the folder. */
  close(): Promise<void>;
}

export async function serveIndexOf(
  prefix: string,
  paths: readonly string[],
  /** More of the server's options (an OTLP receiver: `otlpPort: 0`; no worker threads: `sessionWorker: false`). */
  more: { readonly otlpPort?: number; readonly sessionWorker?: boolean } = {},
): Promise<ServedIndex> {
  const tmp = await mkdtemp(join(tmpdir(), prefix));
  let index: AgentIndex | undefined;
  let server: RunningServer;
  try {
    await copyOfIndex(paths, join(tmp, 'index.sqlite'));
    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    await index.refresh([...paths]);
    server = await startServer({ index, paths: [...paths], host: '127.0.0.1', port: 0, ...more });
  } catch (error) {
    index?.close();
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
  const opened = index;
  return {
    tmp,
    index: opened,
    server,
    close: async () => {
      await server.close();
      opened.close();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}

/** What `servedHome` gives the tests of its block, set before they run. */
export interface ServedHome {
  /** The temporary folder `write` filled (removed after the block). */
  readonly home: string;
  readonly served: ServedIndex;
  readonly browser: Browser;
}

/**
 * For the tests of one describe block: a temporary folder that `write` fills with homes, served (`serveIndexOf`, over
 * the paths `write` returns, else the folder), and this worker's Chromium; all ended after the block.
 */
export function servedHome(
  prefix: string,
  write: (folder: string) => Promise<readonly string[] | undefined> | readonly string[] | undefined,
): ServedHome {
  const state = {} as { home: string; served: ServedIndex; browser: Browser };
  beforeAll(async () => {
    state.home = await mkdtemp(join(tmpdir(), `${prefix}home-`));
    state.served = await serveIndexOf(prefix, (await write(state.home)) ?? [state.home]);
    state.browser = await connectChromium();
  }, 60_000);
  afterAll(async () => {
    await state.browser?.close();
    await state.served?.close();
    if (state.home) await rm(state.home, { recursive: true, force: true });
  });
  return state;
}
