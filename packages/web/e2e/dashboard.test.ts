/**
 * End-to-end: a real server over a temp index of real transcripts, driven in Debian's headless Chromium.
 * Skips plainly when Chromium or the built dashboard is missing.
 */
import { existsSync } from 'node:fs';
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallRowDto, SessionsResponse, StatsResponse } from '@agentdash/api';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { type RunningServer, startServer } from '@agentdash/server';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eMissing, openChromium, scrollToRow } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const corpus = resolve(repoRoot, '../shared/corpus');
const samples = resolve(repoRoot, 'packages/cli/samples/claude-home');
const SHOTS = process.env.AGENTDASH_SHOTS ?? join(tmpdir(), 'agentdash-shots');

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
  let liveFile: string;
  let liveSessionId: string;
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
  const shot = async (name: string) => {
    await page.waitForTimeout(350); // let rows re-measure after blocks open
    await page.screenshot({ path: join(SHOTS, `${name}.png`) });
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
    await mkdir(SHOTS, { recursive: true });
    const homes = await sourceHomes();
    // a copy of one small session, appended to by the live test
    const liveHome = join(tmp, 'live-home');
    const shellProject = join(samples, 'projects', '-home-user-proj-shell');
    const target = join(liveHome, 'projects', '-home-user-proj-live');
    await mkdir(target, { recursive: true });
    const name = (await readdir(shellProject)).find((f) => f.endsWith('.jsonl'))!;
    liveSessionId = name.replace(/\.jsonl$/, '');
    // a new id so the copy does not collide with the original in the index
    const copyId = `${liveSessionId.slice(0, -4)}eeee`;
    liveFile = join(target, `${copyId}.jsonl`);
    const text = (await readFile(join(shellProject, name), 'utf8')).replaceAll(liveSessionId, copyId);
    await cp(join(shellProject, name), liveFile);
    await appendFile(liveFile, ''); // keep mode
    await (await import('node:fs/promises')).writeFile(liveFile, text);
    liveSessionId = copyId;

    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    const paths = [...homes, liveHome];
    await index.refresh(paths);
    server = await startServer({ index, paths, host: '127.0.0.1', port: 0 });
    ({ context, page } = await openChromium(tmp, { problems }));
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
    await shot('01-sessions');
    await page.fill('[data-testid=search]', 'background');
    await page.waitForSelector('[data-testid=search-snippet] mark');
    await shot('02-search');
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
    for (const tool of tools) {
      const { calls } = await api<{ calls: CallRowDto[] }>(`/calls?tool=${encodeURIComponent(tool)}&limit=20`);
      // prefer a successful call: it shows the most of the renderer
      const call = calls.find((c) => c.status === 'ok') ?? calls[0];
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
        await shot(`10-tool-${tool}`);
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
      await shot(`20-error-${severity}`);
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
      await toggle.click();
      const nested = block.locator('[data-testid=subagent-timeline] [data-testid=assistant]').first();
      await nested.waitFor({ timeout: 10_000 });
      expect(await block.locator('[data-testid=subagent-timeline] [data-testid=tool-block]').count()).toBeGreaterThan(
        0,
      );
      await scrollToRow(block);
      await shot('30-subagent');
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
      await shot('40-image');
      shown = true;
      break;
    }
    expect(shown).toBe(true);
  });

  it('drills down from an analytics bar to the failing call in its timeline', async () => {
    await go('#/analytics');
    const bar = page.locator('[data-testid=chart-error-rate] .recharts-bar-rectangle').first();
    await bar.waitFor({ timeout: 15_000 });
    await page.waitForTimeout(600); // chart animation
    await shot('50-analytics');
    await bar.click();
    const row = page.locator('[data-testid=drill-row]').first();
    await row.waitFor({ timeout: 10_000 });
    await page.locator('[data-testid=drill]').scrollIntoViewIfNeeded();
    await shot('51-analytics-drill');
    await row.click();
    await page.waitForFunction(() => window.location.hash.includes('?call='));
    const callId = decodeURIComponent(new URL(page.url()).hash.split('?call=')[1] ?? '');
    const block = page.locator(`[data-call="${callId}"]`).first();
    await block.waitFor({ timeout: 15_000 });
    expect(await block.getAttribute('data-status')).toMatch(/error|expected/);
    await shot('52-drill-target');
    await expectNoOverlap();
  });

  it('opens odd real-world sessions: a subagent folder without its main file, and same-id sessions by folder', async () => {
    // A second server over the CLI's bundled trimmed wild transcripts, in the same browser.
    const wild = resolve(repoRoot, 'packages/cli/test/fixtures/wild/claude-home');
    const wildIndex = openIndex({ dbPath: join(tmp, 'wild.sqlite') });
    await wildIndex.refresh([wild]);
    const wildServer = await startServer({ index: wildIndex, paths: [wild], host: '127.0.0.1', port: 0 });
    try {
      const list = (await (await fetch(new URL('api/sessions', wildServer.url))).json()) as SessionsResponse;
      const orphan = list.sessions.find((r) => r.id.startsWith('6c2214d7'));
      expect(orphan).toBeDefined();
      await page.goto(new URL(`#/s/${encodeURIComponent(orphan!.id)}`, wildServer.url).toString());
      await page.waitForSelector('[data-testid=tool-block]', { timeout: 15_000 });
      await page.click('[data-testid=issues-toggle]');
      await page.waitForSelector('[data-testid=issues]');
      expect(await page.locator('[data-testid=issues]').innerText()).toMatch(/missing_main_file/);
      await shot('70-orphan-subagents');
      await page.goto(new URL(`#/s/${encodeURIComponent('full@checkpoint-b')}`, wildServer.url).toString());
      await page.waitForSelector('[data-testid=assistant]', { timeout: 15_000 });
      const words = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
      const title = await page.locator('[data-testid=session-title]').innerText();
      expect(words(title)).toBe(words(list.sessions.find((r) => r.id === 'full@checkpoint-b')?.title));
      expect(problems).toEqual([]);
    } finally {
      // Leave the page first: closing the server under an open event stream is a console error for later tests.
      await go('#/');
      await wildServer.close();
      wildIndex.close();
    }
  });

  it('updates a open session live when its file grows, without reload', async () => {
    await go(`#/s/${liveSessionId}`);
    await page.waitForSelector('[data-testid=prompt]');
    await page.evaluate(() => {
      (window as unknown as { __marker: number }).__marker = 42;
    });
    // a reader at the end of the timeline follows new events
    for (let i = 0; i < 5; i++) {
      await page.evaluate(() => document.querySelector('[data-testid=timeline-scroll]')?.scrollTo(0, 1e9));
      await page.waitForTimeout(150);
    }
    const lines = (await readFile(liveFile, 'utf8')).trim().split('\n');
    const last = JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>;
    const now = new Date().toISOString();
    const prompt = {
      parentUuid: last.uuid ?? null,
      isSidechain: false,
      userType: 'external',
      cwd: last.cwd ?? '/home/user/proj/live',
      sessionId: liveSessionId,
      version: last.version ?? '2.1.330',
      type: 'user',
      message: { role: 'user', content: 'Live prompt appended by the e2e test' },
      uuid: 'e2e00000-0000-4000-8000-000000000001',
      timestamp: now,
    };
    const reply = {
      ...prompt,
      parentUuid: prompt.uuid,
      type: 'assistant',
      uuid: 'e2e00000-0000-4000-8000-000000000002',
      message: {
        id: 'msg_e2e_live',
        type: 'message',
        role: 'assistant',
        model: 'claude-e2e',
        content: [{ type: 'text', text: 'Live reply **rendered** as markdown' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 1, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    };
    await appendFile(liveFile, `${JSON.stringify(prompt)}\n${JSON.stringify(reply)}\n`);
    await page.waitForFunction(
      () => document.body.textContent?.includes('Live prompt appended by the e2e test'),
      undefined,
      { timeout: 10_000 },
    );
    await page.waitForFunction(() => document.body.textContent?.includes('Live reply'), undefined, { timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(42);
    expect(await page.locator('strong', { hasText: 'rendered' }).count()).toBeGreaterThan(0);
    await shot('60-live');

    // a call appears first without its result, then the result lands inside it
    const callId = 'toolu_e2e_live_0000000001';
    const call = {
      ...reply,
      parentUuid: reply.uuid,
      uuid: 'e2e00000-0000-4000-8000-000000000003',
      timestamp: new Date().toISOString(),
      message: {
        ...reply.message,
        id: 'msg_e2e_live_2',
        content: [
          {
            type: 'tool_use',
            id: callId,
            name: 'Bash',
            input: { command: 'echo live-result', description: 'Live call' },
          },
        ],
        stop_reason: 'tool_use',
      },
    };
    await appendFile(liveFile, `${JSON.stringify(call)}\n`);
    const block = page.locator(`[data-call="${callId}"]`).first();
    await block.waitFor({ timeout: 10_000 });
    expect(await block.getAttribute('data-status')).toMatch(/pending|unanswered/);
    const result = {
      ...prompt,
      parentUuid: call.uuid,
      uuid: 'e2e00000-0000-4000-8000-000000000004',
      timestamp: new Date().toISOString(),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content: 'live-result' }] },
      toolUseResult: { stdout: 'live-result', stderr: '', interrupted: false, isImage: false },
    };
    await appendFile(liveFile, `${JSON.stringify(result)}\n`);
    await page.waitForSelector(`[data-call="${callId}"][data-status=ok]`, { timeout: 10_000 });
    expect(await block.locator('[data-testid=terminal]').textContent()).toContain('live-result');
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(42);
    await shot('61-live-result');
    // and the session list shows it as live
    await go('#/');
    await page.waitForSelector(`[data-session="${liveSessionId}"] [data-testid=live-badge]`, { timeout: 10_000 });
    expect(problems).toEqual([]);
  });
});
