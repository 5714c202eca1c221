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
import { connectChromium, newPage, type ServedIndex, serveIndexOf, settled } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
export const SAMPLES = resolve(here, '../../cli/samples/claude-home');

export const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
export const SCHEMES = ['dark', 'light'] as const;

export type Size = (typeof SIZES)[number];
export type Scheme = (typeof SCHEMES)[number];

/**
 * `page` at `size` and in `scheme`: its viewport and colour scheme changed in place (the dashboard follows the
 * system's scheme as it changes). What the page shows is left as it was: `revisit` draws a page again at the new size.
 */
export async function resize(page: Page, size: { width: number; height: number }, scheme?: Scheme): Promise<void> {
  await page.setViewportSize({ width: size.width, height: size.height });
  if (scheme) await page.emulateMedia({ colorScheme: scheme });
}

/**
 * Open `hash` in `page` as a new visit: its view mounted afresh (what it measures once it is drawn, measured at the
 * page's size now), without loading the dashboard again. A page at that hash already goes to another first (an
 * address that does not change is no visit).
 */
export async function revisit(page: Page, url: string): Promise<void> {
  const to = new URL(url);
  if (page.url() === to.toString()) {
    // drawn before going on, so that nothing of the view before is left to be found
    await page.goto(new URL(to.hash === '#/' ? '#/?' : '#/', to).toString());
    await settled(page);
  }
  await page.goto(to.toString());
}

/**
 * `check` for the four size and scheme pairs one after the other in one page, its viewport and colour scheme set
 * for each (`resize`): a page load costs Chromium several times what a visit within the page does. Its answers
 * in that order.
 */
export async function eachPair<T>(page: Page, check: (size: Size, scheme: Scheme) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (const size of SIZES) {
    for (const scheme of SCHEMES) {
      await resize(page, size, scheme);
      out.push(await check(size, scheme));
    }
  }
  return out;
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

/** Least vertical room between two blocks stacked on a page (cards, tables, notes), in CSS pixels. */
const MIN_BLOCK_GAP = 8;

/**
 * Blocks of the page (the visible children of `.page` in its flow, one after the other) closer than `MIN_BLOCK_GAP`
 * to the block before them: two cards whose borders touch read as one. One line per pair: their classes or test ids
 * and the gap.
 */
export async function touchingBlocks(page: Page): Promise<string[]> {
  return page.evaluate((least) => {
    const out: string[] = [];
    const name = (el: HTMLElement) => el.dataset.testid ?? (el.className || el.tagName.toLowerCase());
    for (const root of document.querySelectorAll<HTMLElement>('.page')) {
      const blocks = [...root.children].filter((el): el is HTMLElement => {
        if (!(el instanceof HTMLElement) || el.getBoundingClientRect().height === 0) return false;
        const position = getComputedStyle(el).position;
        return position !== 'absolute' && position !== 'fixed';
      });
      for (let i = 1; i < blocks.length; i++) {
        const above = blocks[i - 1] as HTMLElement;
        const below = blocks[i] as HTMLElement;
        const gap = below.getBoundingClientRect().top - above.getBoundingClientRect().bottom;
        if (gap < least) out.push(`${name(above)} then ${name(below)}: ${Math.round(gap)} px apart`);
      }
    }
    return out;
  }, MIN_BLOCK_GAP);
}

/**
 * HTML text drawn below WCAG AA contrast (4.5:1, 3:1 from 24 px or 18.66 px bold) against what is behind it (SVG
 * and canvas text are not looked at): its colour
 * and its ancestors' opacity blended over their background colours, up to the first opaque one. One line per element
 * (ratio, tag and classes, text), from the elements visible in the viewport's layout.
 */
export async function lowContrast(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Rgba = { r: number; g: number; b: number; a: number };
    const parse = (c: string): Rgba | undefined => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return undefined;
      const p = (m[1] ?? '')
        .split(/[ ,/]+/)
        .filter(Boolean)
        .map(Number);
      return { r: p[0] ?? 0, g: p[1] ?? 0, b: p[2] ?? 0, a: p.length > 3 ? (p[3] ?? 1) : 1 };
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => ({
      r: top.r * top.a + bottom.r * (1 - top.a),
      g: top.g * top.a + bottom.g * (1 - top.a),
      b: top.b * top.a + bottom.b * (1 - top.a),
      a: 1,
    });
    const lum = ({ r, g, b }: Rgba) => {
      const f = (v: number) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const backgroundOf = (el: Element) => {
      const layers: Rgba[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c && c.a > 0) {
          layers.push(c);
          if (c.a >= 1) break;
        }
      }
      return layers.reverse().reduce((bg, layer) => over(layer, bg), { r: 255, g: 255, b: 255, a: 1 } as Rgba);
    };
    const out: string[] = [];
    const seen = new Set<Element>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || seen.has(el) || !n.textContent?.trim()) continue;
      seen.add(el);
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
      const color = parse(style.color);
      if (!color) continue;
      let opacity = 1;
      for (let e: Element | null = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      if (opacity === 0) continue;
      const bg = backgroundOf(el);
      const fg = over({ ...color, a: color.a * opacity }, bg);
      const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a) as [number, number];
      const ratio = (hi + 0.05) / (lo + 0.05);
      const size = Number.parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) {
        const name = `${el.tagName.toLowerCase()}${[...el.classList].map((c) => `.${c}`).join('')}`;
        out.push(`${ratio.toFixed(2)} ${name} "${(n.textContent ?? '').trim().slice(0, 30)}"`);
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
  /**
   * The file's one page, opened on first use (a page load costs Chromium several visits within the page) and closed
   * with the file: at `options`' size and scheme (1440x900, dark unless said), the focus given up. A test opens its
   * views there with `visit` (each mounted afresh), and leaves nothing of its own behind but its permissions.
   */
  page(options?: { width?: number; height?: number; scheme?: Scheme }): Promise<Page>;
  go(page: Page, hash: string): Promise<unknown>;
  /** Open `hash` in `page` as a new visit, even where the page is already (`revisit`). */
  visit(page: Page, hash: string): Promise<void>;
  /** The sample session with the most errors inside subagents, and those errors. */
  subagentErrorSession(): Promise<{ row: SessionRow; errors: SessionErrorsResponse['errors'] }>;
}

/** The samples served and a Chromium, started in the file's `beforeAll` and closed in its `afterAll`. */
export function samplesInChromium(prefix: string): SamplesUi {
  let served: ServedIndex | undefined;
  let browser: Browser | undefined;
  let shared: { context: BrowserContext; page: Page } | undefined;
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
    await shared?.context.close();
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
    async page(options = {}) {
      shared ??= await ui.open();
      const { page } = shared;
      await resize(page, { width: options.width ?? 1440, height: options.height ?? 900 }, options.scheme ?? 'dark');
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      return page;
    },
    go: (page, hash) => page.goto(new URL(hash, server().url).toString()),
    visit: (page, hash) => revisit(page, new URL(hash, server().url).toString()),
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
