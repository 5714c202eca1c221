/**
 * The HTML export opened offline: the file from `agentdash export --format html`, loaded from `file://` in headless
 * Chromium with every request intercepted, shows the session's calls (subagents' included) and its redaction note,
 * navigates its errors and finds text (subagents' included) with no server, lists the session's files, shows no link
 * that leads nowhere offline, and not one request leaves the page.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { plantedSecrets } from '@agentdash/core/secrets/planted';
import { nextSessionId, prompt, writeDemoHome } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../cli/src/run.js';
import { CHROMIUM } from './chromium';
import { connectChromium } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const viewer = resolve(here, '../dist/export/export.js');

const missing = !existsSync(CHROMIUM)
  ? `${CHROMIUM} is not installed (apt-get install chromium)`
  : !existsSync(viewer)
    ? 'the export viewer is not built (npm run build -w @agentdash/web)'
    : undefined;
if (missing) console.log(`[e2e] skipped: ${missing}`);

describe.skipIf(missing !== undefined)('HTML export from file:// in headless Chromium', () => {
  let tmp: string;
  let file: string;
  let stderr = '';

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-export-e2e-'));
    const home = join(tmp, 'home');
    const sessionId = nextSessionId();
    const demo = writeDemoHome(home, { outputOnlyWord: 'gamma', subagentOnlyWord: 'delta' }, sessionId);
    const secret = plantedSecrets().find((p) => p.rule === 'github-token');
    appendFileSync(
      demo.main,
      `${prompt(
        {
          sessionId,
          uuid: '7aaaaaaa-0000-4000-8000-000000000000',
          timestamp: '2026-11-21T23:00:00.000Z',
        },
        `push with ${secret?.text}`,
      )}\n`,
    );
    file = join(tmp, 'session.html');
    const code = await run(['export', sessionId, home, '--format', 'html', '-o', file, '--db', join(tmp, 'i.sqlite')], {
      stdout: { write: () => true },
      stderr: {
        write: (s: string) => {
          stderr += s;
          return true;
        },
      },
      env: { CLAUDE_CONFIG_DIR: home },
      homedir: home,
      now: Date.now,
    });
    expect(code, stderr).toBe(0);
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('shows the calls and the subagent, says what was redacted, and requests nothing', async () => {
    const browser = await connectChromium();
    try {
      const page = await browser.newPage();
      const url = `file://${file}`;
      const requests: string[] = [];
      await page.route('**/*', (route) => {
        const asked = route.request().url();
        if (asked === url) return route.continue();
        requests.push(asked);
        return route.abort();
      });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      // what the file's Content-Security-Policy blocked (zod's probe for eval was, on every open)
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { cspViolations: string[] }).cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (e) =>
          seen.push(`${e.violatedDirective} ${e.sourceFile}`),
        );
      });
      await page.goto(url);
      await page.locator('[data-testid=tool-block]').first().waitFor({ timeout: 30_000 });
      const tools = await page
        .locator('[data-testid=tool-block]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-tool')));
      expect(tools).toEqual(expect.arrayContaining(['Bash', 'Agent']));
      expect(await page.locator('[data-testid=export-note]').textContent()).toMatch(/· 1 secret redacted$/);
      // The agent's label and its Resume command come from the agents embedded in the file, with no server.
      await page.waitForFunction(
        () => document.querySelector('[data-testid=agent-badge]')?.textContent === 'Claude Code',
        undefined,
        { timeout: 10_000 },
      );
      expect(await page.locator('[data-testid=copy-resume]').getAttribute('title')).toMatch(
        /^Copy: (cd \S+ && )?claude --resume [0-9a-f-]{36}$/,
      );
      // The subagent's timeline opens from its Agent call, from the embedded data.
      const agent = page.locator('[data-tool=Agent]').first();
      if ((await agent.getAttribute('class'))?.split(' ').includes('open') !== true) {
        await agent.locator('[data-testid=tool-head]').click();
      }
      await agent.locator('[data-testid=subagent-toggle]').first().click();
      await page
        .locator('[data-testid=subagent-timeline]')
        .getByText('delta noted')
        .first()
        .waitFor({ timeout: 30_000 });
      expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
      // Nothing that leads nowhere offline: no link to the sessions list, no waterfall, no second export.
      for (const dead of ['.crumbs a[href="#/"]', '[data-testid=open-waterfall]', '[data-testid=export-html]']) {
        expect(await page.locator(dead).count(), dead).toBe(0);
      }
      // Error navigation from the embedded errors: e reaches the failed Bash call.
      await page.locator('[data-testid=timeline-scroll]').click({ position: { x: 5, y: 5 } });
      await page.waitForFunction(() => !document.querySelector('[data-testid=next-error]')?.hasAttribute('disabled'));
      await page.keyboard.press('e');
      await page.waitForFunction(
        () => document.querySelector('[data-testid=error-position]')?.textContent === 'Error 1 of 1',
      );
      // Find runs in the page: a word of the Bash output, and one only the subagent's reply holds.
      for (const [word, total] of [
        ['gamma', '1'],
        ['delta', '1'],
        ['no-such-word-anywhere', 'no match'],
      ] as const) {
        await page.locator('[data-testid=find-input]').fill(word);
        await page.waitForFunction(
          (want) => document.querySelector('[data-testid=find-count]')?.textContent === want,
          total,
          { timeout: 10_000 },
        );
      }
      await page.locator('[data-testid=find-input]').fill('delta');
      await page.waitForFunction(() => document.querySelector('[data-testid=find-count]')?.textContent === '1');
      await page.locator('[data-testid=timeline-scroll]').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('n');
      await page.waitForFunction(() => document.querySelector('[data-testid=find-count]')?.textContent === '1 of 1');
      expect(requests).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("shows the session's files offline, each call a click from the timeline", async () => {
    const samples = resolve(here, '../../cli/samples/claude-home');
    const filesSession = '0097a0c6-9ed3-4b4b-8663-59e78bc0fccc';
    const out = join(tmp, 'files.html');
    let err = '';
    const io = {
      stdout: { write: () => true },
      stderr: {
        write: (s: string) => {
          err += s;
          return true;
        },
      },
      env: { CLAUDE_CONFIG_DIR: samples },
      homedir: samples,
      now: Date.now,
    };
    const db = join(tmp, 'files.sqlite');
    expect(await run(['export', filesSession, samples, '--format', 'html', '-o', out, '--db', db], io), err).toBe(0);
    const browser = await connectChromium();
    try {
      const page = await browser.newPage();
      const url = `file://${out}`;
      const requests: string[] = [];
      await page.route('**/*', (route) => {
        if (route.request().url().startsWith(url)) return route.continue();
        requests.push(route.request().url());
        return route.abort();
      });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      // what the file's Content-Security-Policy blocked (zod's probe for eval was, on every open)
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { cspViolations: string[] }).cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (e) =>
          seen.push(`${e.violatedDirective} ${e.sourceFile}`),
        );
      });
      await page.goto(url);
      await page.locator('[data-testid=open-files]').click();
      await page.waitForSelector('[data-testid=files-changed] [data-testid=file-row]');
      expect(await page.textContent('[data-testid=files-summary]')).toMatch(
        /^7 files changed \(\+9 −35 lines\) · 5 files not changed/,
      );
      // nothing that leads nowhere offline: no sessions list, no waterfall
      expect(await page.locator('.crumbs a[href="#/"]').count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Waterfall' }).count()).toBe(0);
      const row = page.locator('[data-testid=file-row][data-path$="/edit-me.txt"]');
      await row.locator('[data-testid=file-calls-toggle]').click();
      const calls = page.locator('[data-testid=file-call]');
      expect(await calls.count()).toBe(6);
      const callId = new URLSearchParams((await calls.nth(2).getAttribute('href'))?.split('?')[1]).get('call');
      await calls.nth(2).click();
      await page.waitForSelector(`[id="call-${callId}"].highlight-flash`, { timeout: 10_000 });
      expect(requests).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
