/**
 * End-to-end: a session whose transcript holds planted secrets carries `secrets: <count>` in the API (list and
 * detail) and shows the "secrets" badge in the sessions list and in its header, over a real index, server and
 * headless Chromium; a clean session shows none. Skips plainly when Chromium or the built dashboard is missing.
 */
import { appendFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionDetail, SessionsResponse } from '@agentdash/api';
import { plantedSecrets } from '@agentdash/core/secrets/planted';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { type RunningServer, startServer } from '@agentdash/server';
import { nextSessionId, prompt, writeDemoHome } from '@agentdash/testing/synthetic';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eMissing, openChromium } from './harness';

const missing = e2eMissing();

describe.skipIf(missing !== undefined)('the secrets badge in headless Chromium', () => {
  let tmp: string;
  let index: AgentIndex;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  let clean: string;
  let leaky: string;
  const problems: string[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-e2e-secrets-'));
    const home = join(tmp, 'home');
    clean = nextSessionId();
    writeDemoHome(home, { outputOnlyWord: 'alpha', subagentOnlyWord: 'beta' }, clean);
    leaky = nextSessionId();
    // another conversation, not a copy of the clean one
    const main = writeDemoHome(home, { outputOnlyWord: 'gamma', subagentOnlyWord: 'delta' }, leaky, 'leaky').main;
    const planted = plantedSecrets().filter((p) => p.rule === 'github-token' || p.rule === 'slack-token');
    expect(planted).toHaveLength(2);
    appendFileSync(
      main,
      `${prompt(
        { sessionId: leaky, uuid: '7bbbbbbb-0000-4000-8000-000000000000', timestamp: '2026-11-21T23:00:00.000Z' },
        `use these: ${planted.map((p) => p.text).join(' and ')}`,
      )}\n`,
    );
    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    await index.refresh([home]);
    server = await startServer({ index, paths: [home], host: '127.0.0.1', port: 0 });
    ({ context, page } = await openChromium({
      viewport: { width: 1400, height: 900 },
      problems,
      consoleErrors: false,
    }));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    index?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('the API carries the count per session, in the list and the detail', async () => {
    const list = (await (await fetch(new URL('api/sessions', server.url))).json()) as SessionsResponse;
    const counts = Object.fromEntries(list.sessions.map((s) => [s.id, s.secrets]));
    expect(counts).toEqual({ [clean]: 0, [leaky]: 2 });
    const detail = (await (await fetch(new URL(`api/sessions/${leaky}?wait=1`, server.url))).json()) as SessionDetail;
    expect(detail.session.secrets).toBe(2);
  });

  it('shows the badge on the leaky session only, in the list and in its header', async () => {
    await page.goto(new URL('#/', server.url).toString());
    const row = (id: string) => page.locator(`[data-testid=session-row][data-session="${id}"]`);
    await row(leaky).waitFor({ timeout: 30_000 });
    await row(clean).waitFor({ timeout: 30_000 });
    const badge = row(leaky).locator('[data-testid=secrets-badge]');
    expect(await badge.textContent()).toBe('secrets');
    expect(await badge.getAttribute('title')).toMatch(/^2 secrets found .*exports redact them$/);
    expect(await row(clean).locator('[data-testid=secrets-badge]').count()).toBe(0);

    await page.goto(new URL(`#/s/${encodeURIComponent(leaky)}`, server.url).toString());
    const head = page.locator('.session-head [data-testid=secrets-badge]');
    await head.waitFor({ timeout: 30_000 });
    expect(await head.getAttribute('data-count')).toBe('2');

    await page.goto(new URL(`#/s/${encodeURIComponent(clean)}`, server.url).toString());
    await page.locator('[data-testid=session-title]', { hasText: 'Please run the tests' }).waitFor({ timeout: 30_000 });
    await page.locator('.session-head [data-testid=agent-badge]').waitFor({ timeout: 30_000 });
    expect(await page.locator('.session-head [data-testid=secrets-badge]').count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);
});

describe.skipIf(missing !== undefined)('serve --redact in headless Chromium', () => {
  let tmp: string;
  let index: AgentIndex;
  let plain: RunningServer;
  let shared: RunningServer;
  let context: BrowserContext;
  let page: Page;
  let leaky: string;
  const problems: string[] = [];
  const planted = plantedSecrets().filter((p) => p.rule === 'anthropic-api-key' || p.rule === 'authorization-header');

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-e2e-redact-'));
    const home = join(tmp, 'home');
    leaky = nextSessionId();
    const main = writeDemoHome(home, { outputOnlyWord: 'gamma', subagentOnlyWord: 'delta' }, leaky).main;
    appendFileSync(
      main,
      `${prompt(
        { sessionId: leaky, uuid: '7ccccccc-0000-4000-8000-000000000000', timestamp: '2026-11-21T23:00:00.000Z' },
        `deploy with ${planted.map((p) => p.text).join(' and ')}`,
      )}\n`,
    );
    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    await index.refresh([home]);
    plain = await startServer({ index, paths: [home], host: '127.0.0.1', port: 0, refreshOnStart: false });
    shared = await startServer({
      index,
      paths: [home],
      host: '127.0.0.1',
      port: 0,
      refreshOnStart: false,
      redact: true,
    });
    ({ context, page } = await openChromium({ viewport: { width: 1400, height: 900 }, problems }));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await plain?.close();
    await shared?.close();
    index?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  const openSession = async (server: RunningServer) => {
    await page.goto(new URL(`#/s/${encodeURIComponent(leaky)}`, server.url).toString());
    await page.locator('text=deploy with').first().waitFor({ timeout: 30_000 });
    return page.locator('body').innerText();
  };

  it('shows the prompt as written without --redact, and no notice', async () => {
    const text = await openSession(plain);
    expect(planted.filter((p) => text.includes(p.secret)).map((p) => p.rule)).toEqual(planted.map((p) => p.rule));
    expect(await page.locator('[data-testid=redact-notice]').count()).toBe(0);
  }, 120_000);

  it('with --redact shows no secret, and says so in the top bar', async () => {
    const text = await openSession(shared);
    expect(planted.filter((p) => text.includes(p.secret)).map((p) => p.rule)).toEqual([]);
    expect(text).toMatch(/\[REDACTED:anthropic-api-key\]/);
    const notice = page.locator('[data-testid=redact-notice]');
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.textContent()).toBe('secrets redacted');
    expect(await notice.isVisible()).toBe(true);
    expect(problems).toEqual([]);
  }, 120_000);
});
