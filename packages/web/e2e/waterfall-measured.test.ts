/**
 * End-to-end, the waterfall with Claude Code's telemetry: the bundled OTLP/JSON recording replayed into a real `serve`
 * whose home holds the same session's transcript. Calls the client measured are drawn as their measured run (solid,
 * the tool's colour) over the call → result span AgentDash infers (faint), the legend and the canvas's accessible
 * name say how many are measured, and the tip names the measured run beside the inferred span.
 */
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { type RunningServer, startServer } from '@agentdash/server';
import { otelFixtureDir, readRecording } from '@agentdash/testing/otel-recordings';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionTelemetryDto, WaterfallBar, WaterfallResponse } from '../src/data/types';
import { measuredParts } from '../src/pages/waterfall/measured';
import { chartTools, paletteFor, toolColours } from '../src/ui/tool-palette';
import { LABEL_W, LANE_H, laneLayout } from '../src/ui/waterfall-geometry';
import { e2eMissing, openChromium, themeColours } from './harness';
import { shot } from './shots';

const recording = join(otelFixtureDir, '2.1.332-json');
/** The shell scenario: Bash calls, one of them failing. */
const SESSION = '38ec88f3-0d58-4209-9ff9-b12b8004928d';
const PROJECT = '-home-user-proj-shell';

const missing = e2eMissing();
const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));

describe.skipIf(missing !== undefined)('the waterfall with measured times in headless Chromium', () => {
  let tmp: string;
  let index: AgentIndex;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const api = async <T>(path: string): Promise<T> => (await fetch(new URL(path, server.url))).json() as Promise<T>;

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-e2e-wf-otel-'));
    const home = join(tmp, 'claude-home');
    await mkdir(join(home, 'projects'), { recursive: true });
    await cp(join(recording, 'claude-home/projects', PROJECT), join(home, 'projects', PROJECT), { recursive: true });
    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    server = await startServer({ index, paths: [home], host: '127.0.0.1', port: 0, otlpPort: 0 });
    await server.indexed;
    const otlp = server.otlp;
    if (otlp === undefined || !('endpoint' in otlp)) throw new Error('the OTLP receiver is not listening');
    for (const request of readRecording(recording)) {
      const response = await fetch(`${otlp.endpoint}${request.path}`, {
        method: 'POST',
        headers: { 'content-type': request.contentType },
        body: new Uint8Array(request.body),
      });
      await response.arrayBuffer();
      expect(response.status).toBe(200);
    }
    ({ context, page } = await openChromium({ viewport: { width: 1400, height: 800 }, problems }));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    index?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('draws each measured call as its measured run over the inferred span, and says which is which', async () => {
    const waterfall = await api<WaterfallResponse>(`api/sessions/${SESSION}/waterfall`);
    const { calls } = await api<SessionTelemetryDto>(`api/telemetry/sessions/${SESSION}`);
    const bars = waterfall.lanes.flatMap((l) => l.calls);
    const measured = bars.filter((b) => calls[b.id] !== undefined);
    expect(measured.length).toBeGreaterThan(0);

    await page.goto(new URL(`#/s/${SESSION}/waterfall`, server.url).toString());
    const legend = page.locator(`[data-testid=wf-measured-legend][data-calls="${measured.length}"]`);
    await legend.waitFor({ timeout: 15_000 });
    const canvas = page.locator(`[data-testid=waterfall-canvas][data-measured="${measured.length}"]`);
    await canvas.waitFor({ timeout: 15_000 });
    // the label comes with the drawing, a frame after the render that sets data-measured
    await expect
      .poll(() => canvas.getAttribute('aria-label'), { timeout: 15_000 })
      .toMatch(new RegExp(`; ${measured.length} calls? drawn as measured by telemetry, the rest inferred$`));

    // a bar's pixels from its times, as the canvas lays them out (the view as the wheel zooms it, around the pointer)
    const box = await canvas.boundingBox();
    if (box === null) throw new Error('the waterfall canvas is not laid out');
    const view = { t0: waterfall.startMs, t1: Math.max(waterfall.endMs, waterfall.startMs + 50) };
    const xOf = (t: number) => LABEL_W + ((t - view.t0) / (view.t1 - view.t0)) * (box.width - LABEL_W);
    const [main] = laneLayout(waterfall.lanes);
    if (main === undefined) throw new Error('no lane');
    // the main thread's measured call whose inferred span runs longest past its measured run
    const pick = main.lane.calls
      .flatMap((bar: WaterfallBar, i) => {
        const m = calls[bar.id];
        if (!m) return [];
        const y = main.y + (main.rowOf[i] ?? 0) * LANE_H + 4 + (LANE_H - 10) / 2;
        return [{ bar, parts: measuredParts(bar, m), y }];
      })
      .sort((a, b) => b.bar.endMs - b.parts.runEndMs - (a.bar.endMs - a.parts.runEndMs))[0];
    if (pick === undefined) throw new Error('no measured call on the main thread');
    const zoomAt = Math.round(xOf((pick.parts.runEndMs + pick.bar.endMs) / 2));
    await page.mouse.move(box.x + zoomAt, box.y + pick.y);
    for (let i = 0; i < 4; i += 1) {
      await page.mouse.wheel(0, -400);
      const at = view.t0 + ((zoomAt - LABEL_W) / (box.width - LABEL_W)) * (view.t1 - view.t0);
      const span = Math.max(
        50,
        Math.min((view.t1 - view.t0) * Math.exp(-400 * 0.0015), (waterfall.endMs - waterfall.startMs) * 1.2 + 1000),
      );
      const ratio = (at - view.t0) / (view.t1 - view.t0);
      view.t0 = at - ratio * span;
      view.t1 = view.t0 + span;
    }
    // drawn on the next frame
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const run = [xOf(pick.parts.runStartMs), xOf(pick.parts.runEndMs)] as const;
    const end = xOf(pick.bar.endMs);
    expect(end - run[1]).toBeGreaterThan(8);
    const pixel = async (x: number) =>
      await canvas.evaluate(
        (c: HTMLCanvasElement, [px, py]) => {
          const dpr = window.devicePixelRatio || 1;
          return [...(c.getContext('2d')?.getImageData(px * dpr, py * dpr, 1, 1).data ?? [])].slice(0, 3);
        },
        [Math.floor(x), Math.floor(pick.y)] as const,
      );
    const runX = Math.max(run[0], Math.min(run[1] - 1, (run[0] + run[1]) / 2));
    const backdrop = (await themeColours(page, ['--wf-bg']))['--wf-bg'] ?? '';
    const toolColour = (tool: string) =>
      toolColours(chartTools(waterfall.lanes), paletteFor(backdrop)).get(tool) ?? 'none';
    // the measured run is the tool's colour, opaque; the rest of the span to the result only a faint tint of it
    expect(await pixel(runX)).toEqual(rgb(toolColour(pick.bar.tool)));
    expect(await pixel((run[1] + end) / 2 + 1)).not.toEqual(rgb(toolColour(pick.bar.tool)));

    await page.mouse.move(box.x + runX, box.y + pick.y);
    const tip = page.locator('[data-testid=waterfall-tip]');
    await tip.waitFor({ timeout: 15_000 });
    expect(await tip.locator('[data-testid=wf-tip-run]').innerText()).toMatch(/^ran /);
    expect(await tip.locator('[data-testid=wf-tip-span]').innerText()).toMatch(/^call → result /);
    expect(await tip.locator('[data-source=measured]').count()).toBeGreaterThan(0);
    expect(await tip.locator('[data-source=inferred]').count()).toBe(1);
    await shot(page, 'waterfall-measured');
    expect(problems).toEqual([]);
  });
});
