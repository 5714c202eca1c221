/**
 * End-to-end: a first install. `agentdash serve` (as `npm start` runs it) over a machine with no agent home shows the
 * bundled samples; the person's agent then writes its first transcript, and the page they have open shows it, with
 * no samples notice, without a reload by hand (the CLI starts the server again over the home, the page reloads
 * itself once reconnected).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChromium, e2eMissing, newPage } from './harness';

const missing = e2eMissing();
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../../cli/bin/agentdash.js');
const SID = 'f1257e2e-0000-4000-8000-000000000001';

describe.skipIf(missing !== undefined)('a first install, then a first session, in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentdash-e2e-samples-switch-'));
  const home = join(dir, 'home');
  let child: ChildProcess | undefined;
  let url = '';
  let stderr = '';
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(home);
    child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--no-otlp', '--db', join(dir, 'index.sqlite')], {
      env: { PATH: process.env.PATH, HOME: home },
      stdio: 'pipe',
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    url = await new Promise<string>((done, fail) => {
      let out = '';
      child?.stdout?.on('data', (d) => {
        out += d;
        const match = /https?:\/\/\S+/.exec(out);
        if (match) done(match[0]);
      });
      child?.on('close', (code) => fail(new Error(`serve ended (${code}): ${stderr}`)));
    });
    browser = await connectChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it("shows the samples, then the person's own session once written, in the same page", async () => {
    const problems: string[] = [];
    const { context, page } = await newPage(browser, { problems });
    try {
      await page.goto(url);
      await page.locator('[data-testid=samples-notice]').waitFor();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=session-row]').length > 20);
      const at = basesOf(SID);
      writeLines(join(home, '.claude', 'projects', '-home-me-app', `${SID}.jsonl`), [
        prompt(at('u1', null, 1), 'My very first session'),
        assistantText(at('a1', 'u1', 2), 'msg_switch_1', 'Hello.'),
      ]);
      await page.waitForFunction(
        (id) => {
          const rows = [...document.querySelectorAll('[data-testid=session-row]')];
          return (
            document.querySelector('[data-testid=samples-notice]') === null &&
            rows.length === 1 &&
            rows[0]?.getAttribute('data-session') === id
          );
        },
        SID,
        { timeout: 30_000 },
      );
      expect(page.url().startsWith(url)).toBe(true);
      expect(stderr).toContain('the dashboard shows them now, in place of the samples');
      // what failed while the server started again: its live stream, cut (and a request refused meanwhile)
      expect(problems.filter((p) => !/net::ERR_(INCOMPLETE_CHUNKED_ENCODING|CONNECTION_REFUSED)/.test(p))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
