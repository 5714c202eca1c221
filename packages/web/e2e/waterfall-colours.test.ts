/**
 * End-to-end: the waterfall's legend in headless Chromium, light and dark: the tools of one chart get colours a
 * reader tells apart (CIE76 ΔE), from each other and from the bands', on Gemini 0.61 and Claude Code sessions.
 * Skips plainly when Chromium or the built dashboard is missing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionsResponse, WaterfallResponse } from '@agentdash/api';
import { basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deltaE, over, parseCssColor, type Rgb } from '../src/ui/contrast';
import { chartTools } from '../src/ui/tool-palette';
import { e2eMissing, openChromium, type ServedIndex, serveIndexOf } from './harness';
import { shot } from './shots';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = resolve(here, '../../core/test/fixtures');
const homes = [resolve(fixtures, 'gemini/0.61.0/.gemini'), resolve(fixtures, 'claude/claude-home')];
/** A session calling 20 tools, each once: more than the palette's 16 colours. */
const MANY = '0c97beba-0000-4000-8000-0000000000f0';
const manyTools = Array.from({ length: 20 }, (_, i) => `Step${String(i + 1).padStart(2, '0')}`);

function writeManyTools(home: string): void {
  const at = basesOf(MANY);
  const lines = [prompt(at('u0', null, 0), 'Call twenty tools.')];
  let parent = 'u0';
  manyTools.forEach((tool, i) => {
    lines.push(toolUse(at(`a${i}`, parent, 2 * i + 1), `msg_${i}`, `toolu_${i}`, tool, {}));
    lines.push(toolResult(at(`r${i}`, `a${i}`, 2 * i + 2), `toolu_${i}`, 'done', false));
    parent = `r${i}`;
  });
  writeLines(join(home, 'projects', '-home-user-proj-many', `${MANY}.jsonl`), lines);
}

const missing = e2eMissing('e2e waterfall colours');

/** A swatch's colour as seen: its CSS background (with its alpha) over the page's. */
interface Swatch {
  readonly name: string;
  readonly background: string;
  readonly mark?: string;
}

function seen(swatch: string, page: Rgb): Rgb | undefined {
  const rgb = parseCssColor(swatch);
  const alpha = Number(/^rgba\([^)]*,\s*([\d.]+)\)$/.exec(swatch.trim())?.[1] ?? '1');
  return rgb ? over(rgb, alpha, page) : undefined;
}

describe.skipIf(missing !== undefined)('the waterfall legend tells tools apart (headless Chromium)', () => {
  let served: ServedIndex;

  let many: string;

  beforeAll(async () => {
    many = await mkdtemp(join(tmpdir(), 'agentdash-e2e-wf-many-'));
    writeManyTools(many);
    served = await serveIndexOf('agentdash-e2e-wf-colours-', [...homes, many]);
  });

  afterAll(async () => {
    await served?.close();
    if (many) await rm(many, { recursive: true, force: true });
  });

  it('tells more tools than the palette has colours apart: past 16, the colours come round striped', async () => {
    const { context, page } = await openChromium({ colorScheme: 'dark' });
    await page.goto(new URL(`#/s/${MANY}/waterfall`, served.server.url).toString());
    await page.waitForSelector('[data-testid=waterfall-canvas][data-calls="20"]');
    await shot(page, 'waterfall-many-tools');
    const legend = await page.getByTestId('wf-tool-legend').evaluateAll((spans) =>
      spans.map((s) => {
        const style = getComputedStyle(s.querySelector('i') ?? s);
        return `${s.textContent} ${style.backgroundColor} ${style.backgroundImage === 'none' ? 'plain' : 'striped'}`;
      }),
    );
    await context.close();
    expect(legend.map((l) => l.split(' ')[0])).toEqual(manyTools);
    // every tool's swatch differs from every other's, in colour or in stripes
    expect(new Set(legend.map((l) => l.slice(l.indexOf(' ')))).size).toBe(20);
    expect(legend.filter((l) => l.endsWith('striped')).map((l) => l.split(' ')[0])).toEqual(manyTools.slice(16));
  });

  it.each(['dark', 'light'] as const)(
    'every pair of legend entries ΔE 25 or more, 20 from the bands (%s)',
    async (scheme) => {
      const api = async <T>(path: string): Promise<T> =>
        (await (await fetch(new URL(`api${path}`, served.server.url))).json()) as T;
      const list = await api<SessionsResponse>('/sessions?limit=200');
      const charts: { id: string; tools: string[] }[] = [];
      for (const s of list.sessions) {
        const wf = await api<WaterfallResponse>(`/sessions/${encodeURIComponent(s.id)}/waterfall`);
        const tools = chartTools(wf.lanes);
        if (tools.length >= 2) charts.push({ id: s.id, tools });
      }
      // the long Gemini session's pairs and Claude Code's Grep (the colour of the "waiting for you" band) are there
      expect(charts.some((c) => c.tools.includes('grep_search'))).toBe(true);
      expect(charts.some((c) => c.tools.includes('Grep'))).toBe(true);
      const { context, page } = await openChromium({ colorScheme: scheme });
      const close: string[] = [];
      for (const chart of charts) {
        await page.goto(new URL(`#/s/${encodeURIComponent(chart.id)}/waterfall`, served.server.url).toString());
        await page.waitForSelector('[data-testid=waterfall-canvas][data-calls]:not([data-calls="0"])');
        const shown = chart.tools.length;
        const { swatches, bands, ground } = await page.evaluate((n) => {
          const bg = (el: Element | null | undefined) => (el ? getComputedStyle(el).backgroundColor : '');
          const spans = [...document.querySelectorAll('.wf-legend > span')];
          // the tools come last, after model, waiting for you, error and the like
          const tools = spans.slice(-n);
          return {
            swatches: tools.map((s) => ({
              name: s.textContent ?? '',
              background: bg(s.querySelector('i')),
              mark: s.getAttribute('data-mark') ?? '',
            })),
            bands: spans.slice(0, 2).map((s) => ({ name: s.textContent ?? '', background: bg(s.querySelector('i')) })),
            ground: bg(document.body),
          };
        }, shown);
        const page0 = parseCssColor(ground) ?? { r: 0, g: 0, b: 0 };
        expect(swatches.map((s) => s.name).sort(), chart.id).toEqual(chart.tools);
        const colour = (s: Swatch) => seen(s.background, page0) ?? page0;
        for (const [i, a] of swatches.entries()) {
          // tools of different marks (stripes past the palette's first round) are told apart by them
          for (const b of swatches.slice(0, i).filter((b) => b.mark === a.mark)) {
            const d = deltaE(colour(a), colour(b));
            if (d < 25)
              close.push(`${chart.id}: ${a.name} ${a.background} / ${b.name} ${b.background} ΔE ${d.toFixed(1)}`);
          }
          for (const band of bands) {
            const d = Math.min(
              deltaE(colour(a), colour(band)),
              deltaE(colour(a), parseCssColor(band.background) ?? page0),
            );
            if (d < 20)
              close.push(`${chart.id}: ${a.name} ${a.background} / ${band.name} ${band.background} ΔE ${d.toFixed(1)}`);
          }
        }
      }
      await context.close();
      expect(close).toEqual([]);
    },
  );
});
