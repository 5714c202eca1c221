/**
 * End-to-end over hostile input: a session of the worst lines (2,200 levels deep in every field, huge arrays, NUL,
 * markup in the text) and a session whose file cannot be read any more, in Debian's headless Chromium.
 * Skips plainly when Chromium or the built dashboard is missing.
 */
import { appendFile, cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { type RunningServer, startServer } from '@agentdash/server';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORST_DEPTH, worstLines } from '../../../test/hostile.js';
import { e2eMissing, openChromium } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');

const missing = e2eMissing('e2e hostile');

const HOSTILE = 'aaaaaaaa-1111-4111-8111-000000000013';
const UNREADABLE = '4da1eb3d-852a-4da6-8e3f-0bacc4f73990';
const MARKUP = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';

describe.skipIf(missing !== undefined)('hostile sessions in headless Chromium', () => {
  let tmp: string;
  let index: AgentIndex;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-e2e-hostile-'));
    const home = join(tmp, 'home');
    const api = join(home, 'projects', '-home-user-proj-api');
    await cp(join(samples, 'projects', '-home-user-proj-api'), api, { recursive: true });
    const hostileProject = join(home, 'projects', '-home-user-proj-hostile');
    await mkdir(hostileProject, { recursive: true });
    const prompt = JSON.stringify({
      type: 'user',
      uuid: 'h-prompt',
      parentUuid: null,
      sessionId: HOSTILE,
      timestamp: '2026-01-01T00:00:00.000Z',
      cwd: '/tmp/hostile',
      message: { role: 'user', content: `Look at this: ${MARKUP}` },
    });
    await appendFile(
      join(hostileProject, `${HOSTILE}.jsonl`),
      `${[prompt, ...worstLines(WORST_DEPTH, HOSTILE)].join('\n')}\n`,
    );
    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    await index.refresh([home]);
    // Indexed, then unreadable for everyone (root included): a folder in place of the file.
    const file = join(api, `${UNREADABLE}.jsonl`);
    await rm(file);
    await mkdir(file);
    // the index as built above: a refresh on start would see the folder and drop the session before the page asks
    server = await startServer({ index, paths: [home], host: '127.0.0.1', port: 0, refreshOnStart: false });
    ({ context, page } = await openChromium({
      viewport: { width: 1280, height: 900 },
      problems,
      consoleErrors: false,
    }));
  });

  afterAll(async () => {
    await context?.close();
    await server?.close();
    index?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('renders the worst lines as text: deep parts clipped, markup inert, issues listed', async () => {
    await page.goto(new URL(`#/s/${HOSTILE}`, server.url).toString());
    await page.waitForSelector('[data-testid=prompt]');
    expect(await page.locator('[data-testid=prompt]').first().innerText()).toContain(MARKUP);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.click('[data-testid=issues-toggle]');
    await page.waitForSelector('[data-testid=issues] .issue');
    const codes = await page.locator('[data-testid=issues] .issue .pill').allInnerTexts();
    expect(codes.filter((c) => c === 'too_deep')).toHaveLength(32);
    expect(problems).toEqual([]);
  });

  it('says why a session whose file cannot be read is empty', async () => {
    await page.goto(new URL(`#/s/${UNREADABLE}`, server.url).toString());
    // said above the (empty) timeline without a click: which file, and why
    const notice = page.getByTestId('unreadable-notice');
    await notice.waitFor();
    expect(await notice.innerText()).toMatch(/cannot be read now: the timeline is empty for that reason[\s\S]*EISDIR/);
    await page.waitForSelector('[data-testid=issues-toggle]');
    await page.click('[data-testid=issues-toggle]');
    await page.waitForSelector('[data-testid=issues] .issue');
    const text = await page.locator('[data-testid=issues]').innerText();
    expect(text).toMatch(/unreadable_file/);
    expect(text).toMatch(/EISDIR/);
    expect(problems).toEqual([]);
  });
});
