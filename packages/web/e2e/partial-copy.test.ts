/**
 * End-to-end: a session whose transcript was cut short on disk shows its last complete version, with a notice in
 * its header that a newer partial copy is kept and links that download it, over a real index, server and headless
 * Chromium. Skips plainly when Chromium or the built dashboard is missing.
 */
import { cp, mkdtemp, readFile, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { type RunningServer, startServer } from '@agentdash/server';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eMissing, openChromium } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');
const SESSION = '0097a0c6-9ed3-4b4b-8663-59e78bc0fccc';
const missing = e2eMissing();

describe.skipIf(missing !== undefined)('the partial copy notice in headless Chromium', () => {
  let tmp: string;
  let index: AgentIndex;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  let file: string;
  const problems: string[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-e2e-partial-'));
    const home = join(tmp, 'claude-home');
    await cp(samples, home, { recursive: true, preserveTimestamps: true });
    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    await index.refresh([home]);
    file = join(home, 'projects', '-home-user-proj-files', `${SESSION}.jsonl`);
    const bytes = await readFile(file);
    await truncate(file, bytes.subarray(0, Math.floor(bytes.length / 3)).lastIndexOf(0x0a) + 1);
    await index.refresh([home]);
    server = await startServer({ index, paths: [home], host: '127.0.0.1', port: 0 });
    ({ context, page } = await openChromium({ viewport: { width: 1440, height: 900 }, problems }));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    index?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('names the file and why, and its links download the partial copy', async () => {
    // the session's issues are asked once for both file notices (unreadable files, kept partial copies)
    const asked: string[] = [];
    const onRequest = (req: { url(): string }) => {
      if (/\/api\/sessions\/[^/]+\/issues/.test(req.url())) asked.push(req.url());
    };
    page.on('request', onRequest);
    await page.goto(new URL(`#/s/${SESSION}`, server.url).toString());
    const notice = page.locator('[data-testid=partial-copy-notice]');
    await notice.waitFor({ timeout: 30_000 });
    page.off('request', onRequest);
    expect(asked).toHaveLength(1);
    const text = (await notice.textContent()) ?? '';
    expect(text.startsWith('A newer partial copy of this session’s file exists: below is the last complete')).toBe(
      true,
    );
    expect(await notice.locator('.mono').allTextContents()).toEqual([
      expect.stringMatching(
        new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} — shrank from \\d+ to \\d+ bytes`),
      ),
    ]);
    const href = await page.locator('[data-testid=partial-copy-html]').getAttribute('href');
    const res = await fetch(new URL(href ?? '', server.url));
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect((await res.text()).startsWith('<!doctype html>')).toBe(true);
    expect(problems).toEqual([]);
  });
});
