/**
 * What the Chromium suites over the bundled samples share (layout-keys.test.ts, keys-find.test.ts): the samples'
 * index served on a free port, one Chromium per file with a fresh context per page size and colour scheme, page
 * errors and console errors collected, and the sizes, schemes and cut-off check the layout tests use (the sizes and
 * schemes keys-export-fit.test.ts checks too).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionErrorsResponse, SessionRow, SessionsResponse } from '@agentdash/api';
import type { RunningServer } from '@agentdash/server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { connectChromium, newPage, type ServedIndex, serveIndexOf } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
export const SAMPLES = resolve(here, '../../cli/samples/claude-home');

export const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
export const SCHEMES = ['dark', 'light'] as const;

/** `check` for the four size and scheme pairs at once (each in a context of its own), its answers in that order. */
export function eachPair<T>(
  check: (size: (typeof SIZES)[number], scheme: (typeof SCHEMES)[number]) => Promise<T>,
): Promise<T[]> {
  return Promise.all(SIZES.flatMap((size) => SCHEMES.map((scheme) => check(size, scheme))));
}

/** Elements wider than their box that do not scroll: what a person cannot see nor reach. */
export async function cutOff(page: Page): Promise<string[]> {
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

export interface SamplesUi {
  /** The server over the samples (set once `beforeAll` ran). */
  readonly server: RunningServer;
  /** Page errors and console errors of every page opened (a file's last test expects it empty). */
  readonly problems: string[];
  /** GET `api<path>` of the server as JSON, expecting 200. */
  api<T>(path: string): Promise<T>;
  /** A new context and page (1440x900, dark unless said), its errors collected. */
  open(options?: { width?: number; height?: number; scheme?: 'dark' | 'light' }): Promise<{
    context: BrowserContext;
    page: Page;
  }>;
  go(page: Page, hash: string): Promise<unknown>;
  /** The sample session with the most errors inside subagents, and those errors. */
  subagentErrorSession(): Promise<{ row: SessionRow; errors: SessionErrorsResponse['errors'] }>;
}

/** The samples served and a Chromium, started in the file's `beforeAll` and closed in its `afterAll`. */
export function samplesInChromium(prefix: string): SamplesUi {
  let served: ServedIndex | undefined;
  let browser: Browser | undefined;
  const problems: string[] = [];
  const server = (): RunningServer => {
    if (!served) throw new Error('the samples are not served yet');
    return served.server;
  };

  beforeAll(async () => {
    served = await serveIndexOf(prefix, [SAMPLES]);
    browser = await connectChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  const ui: SamplesUi = {
    get server() {
      return server();
    },
    problems,
    async api<T>(path: string): Promise<T> {
      const res = await fetch(new URL(`api${path}`, server().url));
      expect(res.status, path).toBe(200);
      return (await res.json()) as T;
    },
    async open(options = {}) {
      if (!browser) throw new Error('Chromium is not started yet');
      return newPage(browser, {
        viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
        colorScheme: options.scheme ?? 'dark',
        problems,
      });
    },
    go: (page, hash) => page.goto(new URL(hash, server().url).toString()),
    async subagentErrorSession() {
      const list = await ui.api<SessionsResponse>('/sessions?limit=1000');
      let best: { row: SessionRow; errors: SessionErrorsResponse['errors'] } | undefined;
      for (const row of list.sessions.filter((r) => r.errors > 0)) {
        const { errors } = await ui.api<SessionErrorsResponse>(`/sessions/${encodeURIComponent(row.id)}/errors`);
        const inside = errors.filter((e) => e.expand.length > 0).length;
        if (inside > 0 && (!best || inside > best.errors.filter((e) => e.expand.length > 0).length)) {
          best = { row, errors };
        }
      }
      if (!best) throw new Error('no sample session has an error inside a subagent');
      return best;
    },
  };
  return ui;
}
