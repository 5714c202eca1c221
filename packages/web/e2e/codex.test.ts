/**
 * End-to-end: every Codex session of the bundled fixtures opens in headless Chromium over a real server and index,
 * with the agent badge, and each of its calls is rendered by its kind's renderer (the generic one only for what
 * the API itself types `unknown` or `error`). Skips plainly when Chromium or the built dashboard is missing.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallDto, EventDto, EventsPage, SessionsResponse } from '@agentdash/api';
import type { RunningServer } from '@agentdash/server';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eMissing, openChromium, type ServedIndex, serveIndexOf } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const codexFixtures = resolve(repoRoot, 'packages/core/test/fixtures/codex');

const missing = e2eMissing();

/** The kind the dashboard shows a call as (the same rule as the web's `renderKindOf`). */
function expectedKind(call: CallDto): string {
  const typed = call.result?.typed;
  if (typed !== undefined && typed !== null && typed.kind !== 'error' && typed.kind !== 'unknown') return typed.kind;
  return call.toolKind ?? typed?.kind ?? 'unknown';
}

function callsOf(events: readonly EventDto[]): CallDto[] {
  const out: CallDto[] = [];
  for (const event of events) {
    if (event.kind !== 'assistant') continue;
    for (const item of event.items) if (item.kind === 'tool-call') out.push(item);
  }
  return out;
}

describe.skipIf(missing !== undefined)('Codex sessions in headless Chromium', () => {
  let served: ServedIndex;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    served = await serveIndexOf('agentdash-e2e-codex-', [codexFixtures]);
    server = served.server;
    ({ context, page } = await openChromium({ viewport: { width: 1400, height: 900 }, problems }));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await served?.close();
  });

  it('lists every session with its agent, and filters by agent', async () => {
    const list = (await (await fetch(new URL('api/sessions', server.url))).json()) as SessionsResponse;
    expect(list.sessions.length).toBeGreaterThan(10);
    expect(new Set(list.sessions.map((s) => s.agent))).toEqual(new Set(['codex']));
    const claudeOnly = (await (
      await fetch(new URL('api/sessions?agent=claude', server.url))
    ).json()) as SessionsResponse;
    expect(claudeOnly.sessions).toEqual([]);
    expect((await fetch(new URL('api/sessions?agent=nope', server.url))).status).toBe(400);
    await page.goto(new URL('#/', server.url).toString());
    await page.locator('[data-testid=agent-badge]').first().waitFor({ timeout: 15_000 });
    // The list hides empty and warm-up sessions by default; every row it shows carries its agent.
    const shown = (await (await fetch(new URL('api/sessions?hideEmpty=1', server.url))).json()) as SessionsResponse;
    expect(shown.total + (shown.hiddenEmpty ?? 0)).toBe(list.total);
    expect(await page.locator('[data-testid=agent-badge]').count()).toBe(shown.sessions.length);
    // Codex's ids are time-ordered: several fixtures share their first 8 characters (`01a2280e` seven times). Each
    // row's short id is a prefix of its own id that no other row's starts with (what `agentdash show` takes).
    const refs = await page
      .locator('[data-testid=session-row]')
      .evaluateAll((rows) =>
        rows.map((row) => [
          row.getAttribute('data-session') ?? '',
          row.querySelector('[data-testid=session-ref]')?.textContent ?? '',
        ]),
      );
    expect(refs).toHaveLength(shown.sessions.length);
    for (const [id = '', short = ''] of refs) {
      const prefix = short.replace(/…$/, '');
      expect([prefix.length >= 8 || prefix === id, refs.filter(([other = '']) => other.startsWith(prefix))]).toEqual([
        true,
        [[id, short]],
      ]);
    }
    // The agent menu offers the agents that have a session: this home's are Codex's alone.
    await page.waitForFunction(
      (want) =>
        [...document.querySelectorAll<HTMLOptionElement>('[data-testid=filter-agent] option')]
          .map((o) => o.value)
          .join() === want,
      ',codex',
    );
    // An agent the address chooses stays chosen and shown, with no session listed.
    await page.goto(new URL('#/?agent=claude', server.url).toString());
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=agent-badge]').length === 0);
    expect(await page.locator('[data-testid=filter-agent]').inputValue()).toBe('claude');
    await page.selectOption('[data-testid=filter-agent]', '');
    // An address naming an agent the registry lacks lists every agent's sessions (the server would answer 400).
    await page.goto(new URL('#/?agent=nobody', server.url).toString());
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid=agent-badge]').length === n,
      shown.sessions.length,
    );
    expect(await page.locator('[data-testid=filter-agent]').inputValue()).toBe('');
  });

  it('opens every session, each call rendered by its kind', async () => {
    const list = (await (await fetch(new URL('api/sessions?limit=1000', server.url))).json()) as SessionsResponse;
    let checked = 0;
    for (const session of list.sessions) {
      const url = new URL(`api/sessions/${encodeURIComponent(session.id)}/events?offset=0&limit=5000`, server.url);
      const page1 = (await (await fetch(url)).json()) as EventsPage;
      const calls = callsOf(page1.events);
      await page.goto(new URL(`#/s/${encodeURIComponent(session.id)}`, server.url).toString());
      await page.locator('[data-testid=session-title]').waitFor({ timeout: 15_000 });
      await page.locator('[data-testid=agent-badge]').first().waitFor({ timeout: 15_000 });
      // Resume copies Codex's own command, in the session's folder.
      const resume = await page.locator('[data-testid=copy-resume]').getAttribute('title');
      expect(resume).toBe(
        `Copy: ${session.projectPath ? `cd ${session.projectPath} && ` : ''}codex resume ${session.id}`,
      );
      if (calls.length === 0) continue;
      await page.locator('[data-testid=tool-block]').first().waitFor({ timeout: 15_000 });
      const shown = await page
        .locator('[data-testid=tool-block]')
        .evaluateAll((blocks) =>
          blocks.map((b) => ({ id: b.getAttribute('data-call'), kind: b.getAttribute('data-kind') })),
        );
      const byId = new Map(calls.map((c) => [c.id, expectedKind(c)]));
      for (const { id, kind } of shown) {
        if (id === null || !byId.has(id)) continue;
        expect({ session: session.id, id, kind }).toEqual({ session: session.id, id, kind: byId.get(id) });
        checked += 1;
      }
    }
    // Shell, patch, plan, MCP, web search, image reads and tool search all appear in the fixtures.
    expect(checked).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  }, 300_000);

  it('a session whose wall time is unknown (84b6da18: one timestamp) shows "—", never "0 ms" wall or active', async () => {
    const list = (await (await fetch(new URL('api/sessions?limit=1000', server.url))).json()) as SessionsResponse;
    const session = list.sessions.find((s) => s.id.startsWith('84b6da18'));
    expect([session?.durationMs, session?.time?.wallMs]).toEqual([null, null]);
    const id = session?.id ?? '';
    await page.goto(new URL('#/', server.url).toString());
    const row = page.locator(`[data-testid=session-row][data-session="${id}"]`);
    await row.waitFor({ timeout: 15_000 });
    const figures = async (scope: typeof row, wall: string, active: string) => ({
      wall: (await scope.getByTestId(wall).textContent())?.replace(/\s+/g, ' ').trim(),
      active: await scope.getByTestId(active).count(),
      bars: await scope.getByTestId('time-bar').count(),
    });
    // before: "0 ms active" in the list (the time had wallMs 0, not null)
    expect(await figures(row, 'session-wall', 'session-active')).toEqual({ wall: '— wall', active: 0, bars: 0 });
    await page.goto(new URL(`#/s/${encodeURIComponent(id)}`, server.url).toString());
    const stats = page.getByTestId('session-stats');
    await stats.waitFor({ timeout: 15_000 });
    expect(await figures(stats, 'wall-time', 'active-time')).toEqual({ wall: '— wall', active: 0, bars: 0 });
    expect(problems).toEqual([]);
  });
});
