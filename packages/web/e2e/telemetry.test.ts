/**
 * End-to-end, Claude Code's own telemetry: the bundled OTLP/JSON recording replayed, request by request, into a
 * real `serve` over an empty home. The session shows in the list as telemetry-only as soon as its first events are
 * stored, its calls fill in on its page as `tool_result` events arrive, with measured badges; when its transcript
 * is then written into the home, the page becomes the whole session with the measured times joined, and the list
 * holds it once.
 */
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attrText, codexTelemetryToml, decodeOtlpRequest, signalOfOtlpPath } from '@agentdash/core';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { type RunningServer, startServer } from '@agentdash/server';
import { otelFixtureDir, type RecordedRequest, readRecording } from '@agentdash/testing/otel-recordings';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eMissing, openChromium } from './harness';
import { shot } from './shots';

const recording = join(otelFixtureDir, '2.1.332-json');
/** The shell scenario: Bash calls, one of them failing. */
const SESSION = '38ec88f3-0d58-4209-9ff9-b12b8004928d';
const PROJECT = '-home-user-proj-shell';

const missing = e2eMissing();

/** The `tool_result` events of `session` a request carries. */
function toolResultsOf(request: RecordedRequest, session: string): number {
  const signal = signalOfOtlpPath(request.path);
  if (signal !== 'logs') return 0;
  const decoded = decodeOtlpRequest({
    signal,
    contentType: request.contentType,
    contentEncoding: '',
    body: request.body,
  });
  return decoded.records.filter(
    (r) => r.kind === 'event' && r.name === 'tool_result' && attrText(r.attributes, 'session.id') === session,
  ).length;
}

function namesSession(request: RecordedRequest, session: string): boolean {
  const signal = signalOfOtlpPath(request.path);
  if (signal === null) return false;
  const decoded = decodeOtlpRequest({
    signal,
    contentType: request.contentType,
    contentEncoding: '',
    body: request.body,
  });
  return decoded.records.some((r) => r.kind !== 'unknown' && attrText(r.attributes, 'session.id') === session);
}

describe.skipIf(missing !== undefined)("Claude Code's telemetry in headless Chromium", () => {
  let tmp: string;
  let home: string;
  let index: AgentIndex;
  let server: RunningServer;
  let endpoint: string;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const failed = new Set<string>();
  const requests = readRecording(recording);

  const send = async (request: RecordedRequest) => {
    const response = await fetch(`${endpoint}${request.path}`, {
      method: 'POST',
      headers: { 'content-type': request.contentType },
      body: new Uint8Array(request.body),
    });
    await response.arrayBuffer();
    return response.status;
  };

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-e2e-otel-'));
    home = join(tmp, 'claude-home');
    await mkdir(join(home, 'projects'), { recursive: true });
    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    server = await startServer({ index, paths: [home], host: '127.0.0.1', port: 0, otlpPort: 0 });
    await server.indexed;
    const otlp = server.otlp;
    if (otlp === undefined || !('endpoint' in otlp)) throw new Error('the OTLP receiver is not listening');
    endpoint = otlp.endpoint;
    // page errors only: the session's own header is a 404 while it has no transcript (asserted below, by URL)
    ({ context, page } = await openChromium({ problems, consoleErrors: false }));
    page.on('response', (response) => {
      if (response.status() >= 400) failed.add(`${response.status()} ${new URL(response.url()).pathname}`);
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    index?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('appears live as telemetry-only, fills in, then merges with its transcript into one session', async () => {
    const totalTools = requests.reduce((n, r) => n + toolResultsOf(r, SESSION), 0);
    expect(totalTools).toBeGreaterThan(1);
    const first = requests.findIndex((r) => namesSession(r, SESSION));
    expect(first).toBeGreaterThanOrEqual(0);

    await page.goto(server.url);
    await page.locator('[data-testid=sessions-summary]').filter({ hasText: '0 sessions' }).waitFor();
    // the setup panel prints the lines `agentdash otel setup` prints, with this receiver's endpoint
    const env = JSON.parse(
      (await page.locator('[data-testid=telemetry-env]').textContent({ timeout: 15_000 })) ?? '{}',
    );
    expect(env.env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe(endpoint);
    // the laptop's receiver takes no token: no header, no word of one
    expect(env.env.OTEL_EXPORTER_OTLP_HEADERS).toBeUndefined();
    expect(await page.locator('[data-testid=telemetry-token-note]').count()).toBe(0);
    // and Codex CLI's and Gemini CLI's, pointed at the same receiver
    expect(await page.locator('[data-testid=telemetry-codex]').textContent()).toBe(codexTelemetryToml(endpoint));
    const gemini = JSON.parse((await page.locator('[data-testid=telemetry-gemini]').textContent()) ?? '{}');
    expect(gemini.telemetry.otlpEndpoint).toBe(endpoint);

    // up to the session's first export: it shows without a reload (SSE), marked telemetry-only
    for (const request of requests.slice(0, first + 1)) expect(await send(request)).toBe(200);
    const row = page.locator(`[data-testid=telemetry-only-row][data-session="${SESSION}"]`);
    await row.waitFor({ timeout: 15_000 });
    expect(await page.locator('[data-testid=session-row]').count()).toBe(0);

    await row.locator('a').click();
    await page.locator('[data-testid=telemetry-session]').waitFor({ timeout: 15_000 });
    const tools = page.locator('[data-testid=telemetry-step][data-kind=tool]');
    const before = await tools.count();
    expect(before).toBeLessThan(totalTools);

    // the rest of the export: the page fills in as tool_result events arrive
    for (const request of requests.slice(first + 1)) expect(await send(request)).toBe(200);
    await page
      .locator(`[data-testid=telemetry-step][data-kind=tool] >> nth=${totalTools - 1}`)
      .waitFor({ timeout: 15_000 });
    expect(await tools.count()).toBe(totalTools);
    expect(await page.locator('[data-testid=step-duration] [data-source=measured]').count()).toBeGreaterThanOrEqual(
      totalTools,
    );
    expect(await page.locator('[data-testid=tel-model-time]').getAttribute('data-source')).toBe('measured');
    await shot(page, 'telemetry-only');

    // the transcript arrives: the same page becomes the whole session, its calls' times measured
    await cp(join(recording, 'claude-home/projects', PROJECT), join(home, 'projects', PROJECT), { recursive: true });
    await page.locator('[data-testid=session-title]').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid=telemetry-figures]').waitFor({ timeout: 15_000 });
    expect(await page.locator('[data-testid=tel-tools-time]').getAttribute('data-source')).toBe('measured');
    await page.locator('[data-testid=call-duration] [data-source=measured]').first().waitFor({ timeout: 15_000 });
    await shot(page, 'merged');

    // one session in the list, with its telemetry joined; none left telemetry-only
    await page.goto(server.url);
    const merged = page.locator(`[data-testid=session-row][data-session="${SESSION}"]`);
    await merged.waitFor({ timeout: 15_000 });
    await merged.locator('[data-testid=telemetry-badge]').waitFor({ timeout: 15_000 });
    expect(await page.locator(`[data-testid=telemetry-only-row][data-session="${SESSION}"]`).count()).toBe(0);
    expect(await page.locator(`[data-session="${SESSION}"]`).count()).toBe(1);

    // Usage and Analytics say which time is measured. The note is drawn with the page's usage answer: the wait is
    // for that answer (the server's own word that the time is measured), then for the page to draw it, each its own
    // step, since on a loaded machine the answer and the drawing of the charts beside it can each take seconds.
    const usageAnswer = page.waitForResponse(
      async (r) =>
        new URL(r.url()).pathname === '/api/usage' &&
        r.ok() &&
        ((await r.json()) as { time?: { measured?: unknown } }).time?.measured !== undefined,
      { timeout: 0 },
    );
    await page.goto(new URL('#/usage', server.url).toString());
    await usageAnswer;
    const note = page.locator('[data-testid=measured-time-note][data-source=measured]');
    await note.waitFor({ timeout: 15_000 });
    expect(await page.locator('[data-testid=measured-time-note]').count()).toBe(1);
    await page.goto(new URL('#/analytics', server.url).toString());
    await page.locator('[data-testid=measured-tool][data-tool=Bash]').waitFor({ timeout: 15_000 });
    await shot(page, 'analytics');
    expect(problems).toEqual([]);
    expect([...failed]).toEqual([`404 /api/sessions/${SESSION}`]);
  });
});
