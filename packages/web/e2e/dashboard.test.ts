/**
 * End-to-end: a real server over a temp index of real transcripts, driven in Debian's headless Chromium.
 * Skips plainly when Chromium or the built dashboard is missing.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallRowDto, SessionsResponse, StatsResponse } from '@agentdash/api';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { type RunningServer, startServer } from '@agentdash/server';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eMissing, openChromium, scrollToRow, steady } from './harness';
import { shot } from './shots';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const corpus = resolve(repoRoot, '../shared/corpus');
const samples = resolve(repoRoot, 'packages/cli/samples/claude-home');

const missing = e2eMissing();

/** Corpus versions when the corpus is there (unless AGENTDASH_E2E_SAMPLES=1), else the bundled samples. */
async function sourceHomes(): Promise<string[]> {
  if (existsSync(corpus) && process.env.AGENTDASH_E2E_SAMPLES !== '1') {
    const versions = (await readdir(corpus)).filter((v) => existsSync(join(corpus, v, 'claude-home', 'projects')));
    if (versions.length > 0) return versions.map((v) => join(corpus, v, 'claude-home'));
  }
  console.log(`[e2e] using the bundled samples (corpus not at ${corpus}, or AGENTDASH_E2E_SAMPLES=1)`);
  return [samples];
}

/** Tools with a dedicated renderer → its test id. Any other tool must at least get the generic one. */
const DEDICATED: Record<string, string> = {
  Edit: 'renderer-Edit',
  MultiEdit: 'renderer-MultiEdit',
  Write: 'renderer-Write',
  Read: 'renderer-Read',
  NotebookEdit: 'renderer-NotebookEdit',
  Bash: 'renderer-Bash',
  TaskOutput: 'renderer-TaskOutput',
  TaskStop: 'renderer-TaskStop',
  Grep: 'renderer-Grep',
  Glob: 'renderer-Glob',
  WebSearch: 'renderer-WebSearch',
  WebFetch: 'renderer-WebFetch',
  ToolSearch: 'renderer-ToolSearch',
  TodoWrite: 'renderer-TodoWrite',
  TaskCreate: 'renderer-TaskCreate',
  TaskUpdate: 'renderer-TaskUpdate',
  TaskList: 'renderer-TaskList',
  TaskGet: 'renderer-TaskGet',
  Agent: 'renderer-Agent',
  AskUserQuestion: 'renderer-AskUserQuestion',
  ExitPlanMode: 'renderer-ExitPlanMode',
  EnterPlanMode: 'renderer-EnterPlanMode',
  LSP: 'renderer-LSP',
  CronCreate: 'renderer-CronCreate',
  CronDelete: 'renderer-CronDelete',
  CronList: 'renderer-CronList',
  EnterWorktree: 'renderer-EnterWorktree',
  ExitWorktree: 'renderer-ExitWorktree',
};

describe.skipIf(missing !== undefined)('dashboard in headless Chromium', () => {
  let tmp: string;
  let index: AgentIndex;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(new URL(`api${path}`, server.url));
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  const go = async (hash: string) => {
    await page.goto(new URL(hash, server.url).toString());
  };
  /** Opens a deep link and waits for `target` (the timeline asks again for a page whose request failed or was lost). */
  const goAndWait = async (hash: string, target: Locator, timeout: number) => {
    await go(hash);
    await target.waitFor({ timeout });
  };
  const settledShot = async (name: string) => {
    await steady(page, '[data-index]'); // rows re-measured after blocks open
    await shot(page, name);
  };
  /** Virtualized rows never overlap once measured. */
  const expectNoOverlap = async () => {
    const boxes = await page.evaluate(() =>
      [...document.querySelectorAll('[data-index]')].map((e) => {
        const r = e.getBoundingClientRect();
        return { i: Number(e.getAttribute('data-index')), top: r.top, bottom: r.bottom };
      }),
    );
    boxes.sort((a, b) => a.i - b.i);
    for (let k = 1; k < boxes.length; k++) {
      if (boxes[k]!.i === boxes[k - 1]!.i + 1) expect(boxes[k]!.top).toBeGreaterThanOrEqual(boxes[k - 1]!.bottom - 1);
    }
  };

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-e2e-'));
    const paths = await sourceHomes();
    // the run's index of these read-only homes, copied, then refreshed as the server would find it
    await copyOfIndex(paths, join(tmp, 'index.sqlite'));
    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    await index.refresh(paths);
    server = await startServer({ index, paths, host: '127.0.0.1', port: 0 });
    ({ context, page } = await openChromium({ problems }));
    page.on('response', (r) => {
      if (r.status() >= 400 && r.url().includes('/api/')) console.log(`[e2e] ${r.status()} ${r.url()}`);
    });
  });

  afterAll(async () => {
    await context?.close();
    await server?.close();
    index?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('lists sessions, searches, and marks nothing broken', async () => {
    await go('#/');
    await page.waitForSelector('[data-testid=session-row]');
    const rows = await page.locator('[data-testid=session-row]').count();
    // empty and warm-up sessions are hidden by default (issue 12): the list shows what hideEmpty=1 selects
    const list = await api<SessionsResponse>('/sessions?hideEmpty=1');
    expect(rows).toBe(list.total);
    expect(rows).toBeGreaterThan(5);
    await settledShot('01-sessions');
    await page.fill('[data-testid=search]', 'background');
    await page.waitForSelector('[data-testid=search-snippet] mark');
    await settledShot('02-search');
    await page.fill('[data-testid=search]', '');
    await page.check('[data-testid=filter-errors]');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=session-row]').length < n, rows);
    expect(problems).toEqual([]);
  });

  it('shows a renderer for every tool in the sources', async () => {
    const stats = await api<StatsResponse>('/stats');
    const tools = stats.tools.map((t) => t.tool);
    expect(tools.length).toBeGreaterThan(10);
    const seen: Record<string, string> = {};
    // Each tool's call, asked at once; visited session by session (a jump within the open session loads no session).
    const picked = await Promise.all(
      tools.map(async (tool) => {
        const { calls } = await api<{ calls: CallRowDto[] }>(`/calls?tool=${encodeURIComponent(tool)}&limit=20`);
        // prefer a successful call: it shows the most of the renderer
        return { tool, call: calls.find((c) => c.status === 'ok') ?? calls[0] };
      }),
    );
    picked.sort((a, b) => (a.call?.sessionId ?? '').localeCompare(b.call?.sessionId ?? ''));
    for (const { tool, call } of picked) {
      expect(call, tool).toBeDefined();
      console.log(`[e2e] ${tool}: ${call!.sessionId.slice(0, 8)} ${call!.callId}`);
      // a deep link opens the call it points at
      const block = page.locator(`[data-call="${call!.callId}"].open`).first();
      const t0 = performance.now();
      // a jump keeps trying for 30 s while its page loads and rows measure (a busy machine: seen over 15 s)
      await goAndWait(`#/s/${call!.sessionId}?call=${encodeURIComponent(call!.callId)}`, block, 40_000);
      console.log(`[e2e-time] ${tool} ${Math.round(performance.now() - t0)} ms`);
      const renderer = block.locator('[data-testid^=renderer-]').first();
      await renderer.waitFor({ timeout: 5000 });
      const id = (await renderer.getAttribute('data-testid')) ?? '';
      seen[tool] = id;
      const expected = tool.startsWith('mcp__') ? 'renderer-mcp' : DEDICATED[tool];
      if (expected) expect(id, tool).toBe(expected);
      else expect(id, tool).toMatch(/^renderer-/);
      if (
        [
          'Edit',
          'Bash',
          'Agent',
          'TodoWrite',
          'Grep',
          'AskUserQuestion',
          'ExitPlanMode',
          'WebSearch',
          'TaskOutput',
        ].includes(tool)
      ) {
        await scrollToRow(block);
        await settledShot(`10-tool-${tool}`);
      }
    }
    console.log(
      `[e2e] renderers: ${Object.entries(seen)
        .map(([t, r]) => `${t}→${r.replace('renderer-', '')}`)
        .join(', ')}`,
    );
    expect(problems).toEqual([]);
  });

  it('shows an error badge of each severity, expected errors muted', async () => {
    for (const severity of ['error', 'expected'] as const) {
      const { calls } = await api<{ calls: CallRowDto[] }>(`/calls?status=error&severity=${severity}&limit=5`);
      expect(calls.length, severity).toBeGreaterThan(0);
      const call = calls[0]!;
      const badge = page.locator(`[data-call="${call.callId}"] [data-testid=error-badge]`).first();
      await goAndWait(`#/s/${call.sessionId}?call=${encodeURIComponent(call.callId)}`, badge, 20_000);
      expect(await badge.getAttribute('data-severity')).toBe(severity);
      expect(await badge.getAttribute('class')).toContain(severity === 'expected' ? 'expected' : 'error');
      await scrollToRow(page.locator(`[data-call="${call.callId}"]`).first());
      await settledShot(`20-error-${severity}`);
    }
  });

  it('expands a subagent and shows its own timeline', async () => {
    const { calls } = await api<{ calls: CallRowDto[] }>('/calls?tool=Agent&status=ok&limit=50');
    let opened = false;
    for (const call of calls) {
      await go(`#/s/${call.sessionId}?call=${encodeURIComponent(call.callId)}`);
      const block = page.locator(`[data-call="${call.callId}"]`).first();
      await block.waitFor({ timeout: 15_000 });
      const toggle = block.locator('[data-testid=subagent-toggle]').first();
      if ((await toggle.count()) === 0) continue;
      // The deep link's jump done (rows measured, the target scrolled to): a row the virtual list mounts again while
      // it settles starts closed, and a click before that is lost with it.
      await steady(page, '[data-index]');
      await toggle.click();
      const nested = block.locator('[data-testid=subagent-timeline] [data-testid=assistant]').first();
      await nested.waitFor({ timeout: 10_000 });
      expect(await block.locator('[data-testid=subagent-timeline] [data-testid=tool-block]').count()).toBeGreaterThan(
        0,
      );
      await scrollToRow(block);
      await settledShot('30-subagent');
      await expectNoOverlap();
      opened = true;
      break;
    }
    expect(opened).toBe(true);
  });

  it('shows images from tool results', async () => {
    const candidates = [
      ...(await api<{ calls: CallRowDto[] }>('/calls?tool=mcp__rec__image&status=ok&limit=3')).calls,
      ...(await api<{ calls: CallRowDto[] }>('/calls?tool=Read&status=ok&limit=500')).calls,
    ];
    let shown = false;
    for (const call of candidates.slice(0, 40)) {
      const full = await api<{ result: { images: unknown[] } | null }>(
        `/sessions/${call.sessionId}/calls/${call.callId}`,
      );
      if (!full.result || full.result.images.length === 0) continue;
      await go(`#/s/${call.sessionId}?call=${encodeURIComponent(call.callId)}`);
      const block = page.locator(`[data-call="${call.callId}"].open`).first();
      await block.waitFor({ timeout: 15_000 });
      const img = block.locator('img[data-testid=result-image]').first();
      await img.waitFor();
      const width = await img.evaluate((el) => (el as HTMLImageElement).naturalWidth);
      expect(width).toBeGreaterThan(0);
      await scrollToRow(block);
      await settledShot('40-image');
      shown = true;
      break;
    }
    expect(shown).toBe(true);
  });

  it('drills down from an analytics bar to the failing call in its timeline', async () => {
    await go('#/analytics');
    const bar = page.locator('[data-testid=chart-error-rate] .recharts-bar-rectangle').first();
    await bar.waitFor({ timeout: 15_000 });
    await steady(page, '[data-testid=chart-error-rate] .recharts-bar-rectangle'); // bars grown in
    await settledShot('50-analytics');
    await bar.click();
    const row = page.locator('[data-testid=drill-row]').first();
    await row.waitFor({ timeout: 10_000 });
    // the panel, below every chart, is brought into view by the click itself, its heading focused: once its rows
    // came, either whole in view or its top in the window's first third (before: a long one was left near the
    // bottom, its heading alone in view)
    const seen = await page
      .waitForFunction(
        () => {
          const box = document.querySelector('[data-testid=drill]')?.getBoundingClientRect();
          return (
            box !== undefined && box.top >= 0 && (box.bottom <= window.innerHeight || box.top < window.innerHeight / 3)
          );
        },
        undefined,
        { timeout: 5_000 },
      )
      .then(
        () => 'in view',
        () =>
          page.evaluate(
            () =>
              `top ${document.querySelector('[data-testid=drill]')?.getBoundingClientRect().top} of ${window.innerHeight}, scrollY ${window.scrollY}, page ${document.documentElement.scrollHeight}`,
          ),
      );
    expect(seen).toBe('in view');
    expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toMatch(/^Failing .+ calls$/);
    await settledShot('51-analytics-drill');
    await row.click();
    await page.waitForFunction(() => window.location.hash.includes('?call='));
    const callId = decodeURIComponent(new URL(page.url()).hash.split('?call=')[1] ?? '');
    const block = page.locator(`[data-call="${callId}"]`).first();
    await block.waitFor({ timeout: 15_000 });
    expect(await block.getAttribute('data-status')).toMatch(/error|expected/);
    await settledShot('52-drill-target');
    await expectNoOverlap();
  });
});
