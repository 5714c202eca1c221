/**
 * End-to-end in Debian's headless Chromium, continued from dashboard.test.ts: odd real-world sessions (the CLI's
 * bundled wild transcripts) and a session updated live as its file grows. Skips plainly when Chromium or the built
 * dashboard is missing.
 */
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionsResponse } from '@agentdash/api';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { type RunningServer, startServer } from '@agentdash/server';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eMissing, openChromium, scrolledToEnd, steady } from './harness';
import { shot } from './shots';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const samples = resolve(repoRoot, 'packages/cli/samples/claude-home');

const missing = e2eMissing();

describe.skipIf(missing !== undefined)('dashboard in headless Chromium: odd sessions and live updates', () => {
  let tmp: string;
  let index: AgentIndex;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  let liveFile: string;
  /** The fields a record appended after `last` shares with it: its chain, folder, session and client version. */
  const envelopeAfter = (last: Record<string, unknown>) => ({
    parentUuid: last.uuid ?? null,
    isSidechain: false,
    userType: 'external',
    cwd: last.cwd ?? '/home/user/proj/live',
    sessionId: liveSessionId,
    version: last.version ?? '2.1.330',
  });
  /** The live transcript's last record, which a test's appended records follow. */
  const lastRecord = async (): Promise<Record<string, unknown>> => {
    const lines = (await readFile(liveFile, 'utf8')).trim().split('\n');
    return JSON.parse(lines[lines.length - 1] ?? '{}') as Record<string, unknown>;
  };
  let liveSessionId: string;
  const problems: string[] = [];

  const go = async (hash: string) => {
    await page.goto(new URL(hash, server.url).toString());
  };
  const settledShot = async (name: string) => {
    await steady(page, '[data-index]'); // rows re-measured after blocks open
    await shot(page, name);
  };

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-e2e-live-'));
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
    await writeFile(liveFile, text);
    liveSessionId = copyId;

    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    const paths = [samples, liveHome];
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
      await settledShot('70-orphan-subagents');
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
    await scrolledToEnd(page, '[data-testid=timeline-scroll]');
    const last = await lastRecord();
    const now = new Date().toISOString();
    const prompt = {
      ...envelopeAfter(last),
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
    await settledShot('60-live');

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
    await settledShot('61-live-result');
    // and the session list shows it as live
    await go('#/');
    await page.waitForSelector(`[data-session="${liveSessionId}"] [data-testid=live-badge]`, { timeout: 10_000 });
    // Its dot pulses, unless the system asks for reduced motion (as every page `newPage` opens does).
    const dotRepeats = () =>
      page
        .locator(`[data-session="${liveSessionId}"] [data-testid=live-badge]`)
        .first()
        .evaluate((el) => getComputedStyle(el, '::before').animationIterationCount);
    expect(await dotRepeats()).toBe('1');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await dotRepeats()).toBe('infinite');
    await page.emulateMedia({ reducedMotion: null });
    expect(problems).toEqual([]);
  });

  it('the waterfall follows a live session: a new call shows running, then done, beside the calls it had', async () => {
    await go(`#/s/${liveSessionId}/waterfall`);
    const canvas = page.locator('[data-testid=waterfall-canvas]');
    await page.waitForSelector('[data-testid=waterfall-canvas][data-calls]:not([data-calls="0"])');
    const calls = Number(await canvas.getAttribute('data-calls'));
    expect(await canvas.getAttribute('data-open')).toBe('0');
    const last = await lastRecord();
    const callId = 'toolu_e2e_live_waterfall_01';
    const call = {
      ...envelopeAfter(last),
      type: 'assistant',
      uuid: 'e2e00000-0000-4000-8000-000000000011',
      timestamp: new Date().toISOString(),
      message: {
        id: 'msg_e2e_live_waterfall',
        type: 'message',
        role: 'assistant',
        model: 'claude-e2e',
        content: [{ type: 'tool_use', id: callId, name: 'Bash', input: { command: 'sleep 1', description: 'Wait' } }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 1, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    };
    await appendFile(liveFile, `${JSON.stringify(call)}\n`);
    const after = (n: number, open: number) =>
      page.waitForSelector(`[data-testid=waterfall-canvas][data-calls="${n}"][data-open="${open}"]`, {
        timeout: 10_000,
      });
    await after(calls + 1, 1);
    const result = {
      ...call,
      parentUuid: call.uuid,
      type: 'user',
      uuid: 'e2e00000-0000-4000-8000-000000000012',
      timestamp: new Date(Date.now() + 1_000).toISOString(),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content: '' }] },
      toolUseResult: { stdout: '', stderr: '', interrupted: false, isImage: false },
    };
    await appendFile(liveFile, `${JSON.stringify(result)}\n`);
    await after(calls + 1, 0);
    expect(problems).toEqual([]);
  });

  it('a waterfall slower to answer than its session changes is let finish, never asked again and again', async () => {
    // each waterfall answer held 2.5 s: longer than the session takes to change below
    const route = '**/api/sessions/*/waterfall';
    await page.route(route, async (r) => {
      await new Promise((done) => setTimeout(done, 2_500));
      await r.continue().catch(() => undefined);
    });
    const aborted: string[] = [];
    const onFailed = (req: import('playwright-core').Request) => {
      if (/\/waterfall$/.test(new URL(req.url()).pathname)) aborted.push(req.failure()?.errorText ?? '?');
    };
    page.on('requestfailed', onFailed);
    try {
      await go(`#/s/${liveSessionId}/waterfall`);
      const last = await lastRecord();
      // the agent writes a line every 400 ms for 4 s while the first answer is on its way
      for (let i = 0; i < 10; i++) {
        const line = {
          ...last,
          uuid: `e2e00000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`,
          parentUuid: last.uuid ?? null,
          type: 'user',
          timestamp: new Date().toISOString(),
          message: { role: 'user', content: `still working ${i}` },
        };
        delete (line as Record<string, unknown>).toolUseResult;
        await appendFile(liveFile, `${JSON.stringify(line)}\n`);
        await new Promise((done) => setTimeout(done, 400));
      }
      await page.waitForSelector('[data-testid=waterfall-canvas][data-calls]:not([data-calls="0"])');
      expect(aborted).toEqual([]);
    } finally {
      page.off('requestfailed', onFailed);
      await page.unroute(route);
    }
    expect(problems).toEqual([]);
  });
});
