/**
 * End-to-end: the team dashboard in headless Chromium over a real PostgreSQL and a real team server. Two people push
 * three devices at different tiers (ann's laptop at full, ann's CI runner at metadata, bob's desktop at summary); a
 * viewer's token opens the dashboard. The person and device filter narrows the list, each row says who pushed it
 * from where at which tier, a summary-tier session hides its title and timeline and says why (a metadata-tier one lists
 * its calls), a full-tier session's timeline renders, and the top bar says it is a team server with the tiers it
 * holds. Skips plainly without Chromium, the built dashboard or PostgreSQL.
 */
import type { CallsResponse, SessionsResponse, UsageResponse } from '@agentdash/api';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SummarySession, TEAM_PAYLOAD_VERSION } from '../../team/src/contract.js';
import { digestOf } from '../../team/src/digest.js';
import type { RunningTeamServer } from '../../team/src/server/start.js';
import { postgresBin } from '../../team/test/pg-harness.js';
import { summarySession } from '../../team/test/wire.js';
import { fmtCost, fmtCostCell } from '../src/ui/format';
import { e2eMissing, openChromium } from './harness';
import { shot } from './shots';
import { startTeamWorld, type TeamWorld } from './team-setup';

const missing =
  e2eMissing('team e2e') ?? (postgresBin ? undefined : 'PostgreSQL is not installed (apt-get install postgresql)');
if (missing && !postgresBin && process.env.AGENTDASH_REQUIRE_PG === '1') {
  throw new Error('AGENTDASH_REQUIRE_PG=1 but PostgreSQL (initdb, postgres) is not installed');
}

describe.skipIf(missing !== undefined)(
  `the team dashboard in headless Chromium${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let world: TeamWorld;
    let server: RunningTeamServer;
    let viewer: string;
    /** ann's laptop's device token: what its Claude Code would send telemetry with. */
    let laptopToken = '';
    let tokens: ReadonlyMap<string, string>;
    let context: BrowserContext;
    let page: Page;
    const problems: string[] = [];

    const api = async <T>(path: string): Promise<T> =>
      (await (await fetch(`${server.url}api${path}`, { headers: { authorization: `Bearer ${viewer}` } })).json()) as T;
    const teamShot = (name: string) => shot(page, `team-${name}`);
    const rowTexts = async (testId: string) =>
      await page.locator(`[data-testid=session-row] [data-testid=${testId}]`).allInnerTexts();

    beforeAll(async () => {
      world = await startTeamWorld();
      ({ server, viewer, tokens } = world);
      laptopToken = tokens.get('laptop') ?? '';
      ({ context, page } = await openChromium({ viewport: { width: 1500, height: 950 }, problems }));
    }, 180_000);

    afterAll(async () => {
      await context?.close();
      await world?.close();
    });

    it('opens with a viewer token; says it is a team server and which tiers it holds', async () => {
      await page.goto(`${server.url}?token=${encodeURIComponent(viewer)}`);
      // the token went into a cookie and out of the address
      expect(new URL(page.url()).searchParams.get('token')).toBeNull();
      await page.waitForSelector('[data-testid=session-row]');
      expect(await page.locator('[data-testid=server-mode]').innerText()).toBe(
        'team server · holds summary, metadata, full',
      );
      await teamShot('01-sessions');
    });

    it('the top bar fits at 390, 900 and 1440 px: no sideways scroll, every control on screen', async () => {
      const controls = ['server-mode', 'filter-person', 'shortcuts-button', 'theme-toggle', 'live-status', 'nav-usage'];
      await page.goto(`${server.url}?token=${encodeURIComponent(viewer)}`);
      for (const width of [390, 900, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.waitForSelector('[data-testid=session-row]');
        const doc = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(doc, `document width at ${width} px`).toBeLessThanOrEqual(width);
        for (const id of controls) {
          const box = await page.locator(`[data-testid=${id}]`).boundingBox();
          expect(box, `${id} at ${width} px`).not.toBeNull();
          expect(box?.width ?? 0, `${id} at ${width} px`).toBeGreaterThan(0);
          expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= width, `${id} at ${width} px`).toBe(true);
        }
        await teamShot(`01-topbar-${width}`);
      }
      await page.setViewportSize({ width: 1500, height: 950 });
    });

    it("the telemetry panel says the team server receives, on its own URL with a device's token", async () => {
      await page.goto(`${server.url}?token=${encodeURIComponent(viewer)}`);
      const panel = page.locator('[data-testid=telemetry-setup]');
      await panel.waitFor();
      const origin = new URL(server.url).origin;
      expect(await panel.locator('summary').innerText()).toBe(`Agent telemetry: receiving OTLP on ${origin}`);
      const env = JSON.parse(
        (await page.locator('[data-testid=telemetry-env]').textContent({ timeout: 5000 })) ?? '{}',
      );
      expect(env.env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe(origin);
      expect(env.env.OTEL_EXPORTER_OTLP_HEADERS).toBe('Authorization=Bearer <device token>');
      expect(await page.locator('[data-testid=telemetry-codex]').textContent()).toContain(
        `endpoint = "${origin}/v1/logs"`,
      );
      expect(await page.locator('[data-testid=telemetry-token-note]').textContent()).toContain('device token');
      await panel.locator('summary').click();
      await page.locator('[data-testid=telemetry-codex]').scrollIntoViewIfNeeded();
      await teamShot('01-telemetry-setup');
    });

    it('each row says who pushed it, from which device, at which tier', async () => {
      const list = await api<SessionsResponse>('/sessions?hideEmpty=1');
      const rows = page.locator('[data-testid=session-row]');
      expect(await rows.count()).toBe(list.total);
      const people = await rowTexts('person-badge');
      const tiers = await rowTexts('tier-badge');
      expect(people).toHaveLength(list.total);
      expect(new Set(people)).toEqual(new Set(['ann · laptop', 'ann · ci', 'bob · desktop']));
      expect(new Set(tiers)).toEqual(new Set(['full', 'metadata', 'summary']));
      // a summary-tier row hides its title and says why; the others show theirs
      const hidden = page.locator('[data-testid=session-row] [data-testid=title-hidden]');
      expect(await hidden.count()).toBe(tiers.filter((t) => t === 'summary').length);
      expect(await hidden.first().innerText()).toBe('Title not shared (summary tier)');
    });

    it('the person and device filter narrows the list', async () => {
      const bobs = await api<SessionsResponse>('/sessions?hideEmpty=1&person=bob');
      expect(bobs.total).toBeGreaterThan(0);
      await page.selectOption('[data-testid=filter-person]', 'bob');
      // an empty list (the page between two answers) is not yet the filtered one
      await page.waitForFunction((n) => {
        const badges = [...document.querySelectorAll('[data-testid=session-row] [data-testid=person-badge]')];
        return badges.length === n && badges.every((b) => b.textContent === 'bob · desktop');
      }, bobs.total);
      expect(await page.locator('[data-testid=session-row]').count()).toBe(bobs.total);
      await teamShot('02-bob');

      await page.selectOption('[data-testid=filter-person]', 'ann');
      // ann pushes from two devices: the device filter appears
      await page.selectOption('[data-testid=filter-device]', 'ci');
      await page.waitForFunction(() => {
        const badges = [...document.querySelectorAll('[data-testid=session-row] [data-testid=person-badge]')];
        return badges.length > 0 && badges.every((b) => b.textContent === 'ann · ci');
      });
      const ci = await api<SessionsResponse>('/sessions?hideEmpty=1&person=ann&device=ci');
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid=session-row]').length === n, ci.total);
      expect(new Set(await rowTexts('tier-badge'))).toEqual(new Set(['metadata']));
      await teamShot('03-ann-ci');
      await page.selectOption('[data-testid=filter-person]', '');
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid=session-row]').length === n,
        (await api<SessionsResponse>('/sessions?hideEmpty=1')).total,
      );
    });

    it("the usage page gives each person's cost; a person's name filters every page to them", async () => {
      const usage = await api<UsageResponse>('/usage');
      const people = usage.people ?? [];
      expect(people.map((p) => p.person).sort()).toEqual(['ann', 'bob']);
      await page.goto(`${server.url}#/usage`);
      const table = page.locator('[data-testid=usage-people]');
      await table.waitFor();
      const rows = (await table.locator('tbody tr').allInnerTexts()).map((r) => r.split('\t'));
      // costliest first, each row the API's figures
      // a table's cost keeps its `+ ?` together (fmtCostCell)
      expect(rows.map((r) => [r[0], r[3]])).toEqual(people.map((p) => [p.person, fmtCostCell(p.costUsd, p)]));
      await teamShot('02-usage-people');
      const bob = await api<UsageResponse>('/usage?person=bob');
      await table.getByRole('button', { name: 'bob', exact: true }).click();
      // the top bar's filter says bob, and the page shows bob's usage alone (one person: no breakdown)
      expect(await page.locator('[data-testid=filter-person]').inputValue()).toBe('bob');
      await page.waitForFunction(
        (cost) =>
          document.querySelector('[data-testid=usage-total-cost]')?.textContent?.startsWith(cost) === true &&
          document.querySelector('[data-testid=usage-people]') === null,
        fmtCost(bob.totals.costUsd, bob.totals),
      );
      // and so does the sessions list
      await page.goto(`${server.url}#/`);
      const bobs = await api<SessionsResponse>('/sessions?hideEmpty=1&person=bob');
      await page.waitForFunction((n) => {
        const badges = [...document.querySelectorAll('[data-testid=session-row] [data-testid=person-badge]')];
        return badges.length === n && badges.every((b) => b.textContent === 'bob · desktop');
      }, bobs.total);
      await page.selectOption('[data-testid=filter-person]', '');
      expect(problems).toEqual([]);
    });

    it('a summary-tier session hides its title and timeline, and says why', async () => {
      const bobs = await api<SessionsResponse>('/sessions?hideEmpty=1&person=bob');
      const id = bobs.sessions[0]?.id ?? '';
      await page.goto(`${server.url}#/s/${id}`);
      await page.waitForSelector('[data-testid=tier-notice]');
      expect(await page.locator('[data-testid=session-title]').innerText()).toBe('Title not shared (summary tier)');
      expect(await page.locator('[data-testid=tier-notice]').innerText()).toMatch(
        /^Shared at the summary tier: numbers only .*\. Its transcript, title and project stay on bob's desktop: the team server never received them/,
      );
      // no timeline rows, no error, nothing offered that the team server cannot give (waterfall, export, resume)
      const timeline = ['prompt', 'assistant', 'tool-block', 'session-events-error'];
      const offers = ['open-waterfall', 'copy-resume', 'expand-all'];
      const shown = async (id: string) => ((await page.locator(`[data-testid=${id}]`).count()) > 0 ? [id] : []);
      expect((await Promise.all([...timeline, ...offers].map(shown))).flat()).toEqual([]);
      expect(await page.getByText('This session has no messages yet.').count()).toBe(0);
      // its calls as the tier holds them: each one's tool and how it ended, never what it did
      const called = bobs.sessions.find((s) => s.toolCalls > 0) ?? bobs.sessions[0];
      if (called && called.id !== id) await page.goto(`${server.url}#/s/${called.id}`);
      const rows = page.locator('[data-testid=tier-call]');
      await page.locator('[data-testid=tier-calls], .empty').first().waitFor();
      expect(await rows.count()).toBe(called?.toolCalls ?? 0);
      if ((called?.toolCalls ?? 0) > 0) {
        expect(new Set(await rows.locator('td:nth-child(3)').allInnerTexts())).toEqual(
          new Set(['not shared (summary tier)']),
        );
      }
      await teamShot('04-summary-session');
    });

    /** bob's desktop's session 700, sent as a push sends it, changed by `change`: its uid. */
    const pushBobs = async (change: (s: SummarySession) => Partial<SummarySession>) => {
      const base = summarySession(700);
      const session = { ...base, ...change(base), digest: '' };
      const res = await fetch(`${server.url}api/team/v1/push/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.get('desktop') ?? ''}`, 'content-type': 'application/json' },
        body: JSON.stringify({ version: TEAM_PAYLOAD_VERSION, sessions: [{ ...session, digest: digestOf(session) }] }),
      });
      expect(res.status).toBe(200);
      return session.uid;
    };
    /** The session's calls as the agent went on: a third call (a read). */
    const withRead = (s: SummarySession): SummarySession['calls'] => [
      ...s.calls,
      {
        ...(s.calls[1] as SummarySession['calls'][number]),
        id: `${s.calls[1]?.id}-read`,
        tool: 'Read',
        canonical: 'read',
      },
    ];
    const tierStatuses = async () => await page.locator('[data-testid=tier-call] td:nth-child(4)').allInnerTexts();

    it("a summary-tier session's calls follow a new push of it, the page open", async () => {
      const uid = await pushBobs(() => ({}));
      await page.goto(`${server.url}#/s/${uid}`);
      await page.locator('[data-testid=tier-call]').first().waitFor();
      expect(await tierStatuses()).toEqual(['test-failure', 'ok']);
      // the agent went on, and the laptop pushed the session again: told over SSE, the page not reloaded
      await pushBobs((s) => ({ toolCalls: 3, calls: withRead(s) }));
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=tier-call]').length === 3, undefined, {
        timeout: 15_000,
      });
      expect(await tierStatuses()).toEqual(['test-failure', 'ok', 'ok']);
      expect(problems).toEqual([]);
    });

    // A push that changed a call (its status, its summary) but not the count of calls: the list follows it too.
    it('and a push that changed a call but not the count of calls', async () => {
      await pushBobs((s) => ({
        toolCalls: 3,
        errors: 2,
        calls: withRead(s).map((c) =>
          c.id === s.calls[1]?.id ? { ...c, status: 'error', category: 'edit-mismatch', severity: 'unexpected' } : c,
        ),
      }));
      // told over SSE as the push before was
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid=tier-call] td:nth-child(4)')[1]?.textContent === 'edit-mismatch',
        undefined,
        { timeout: 5_000 },
      );
      expect(await tierStatuses()).toEqual(['test-failure', 'edit-mismatch', 'ok']);
    });

    it("a metadata-tier session's notice says its one transcript stays on the machine", async () => {
      const ci = await api<SessionsResponse>('/sessions?hideEmpty=1&person=ann&device=ci');
      await page.goto(`${server.url}?token=${encodeURIComponent(viewer)}#/s/${ci.sessions[0]?.id ?? ''}`);
      await page.waitForSelector('[data-testid=tier-notice]');
      expect(await page.locator('[data-testid=tier-notice]').innerText()).toMatch(
        /^Shared at the metadata tier: .*\. Its transcript stays on ann's ci: the team server never received it, so there is no timeline to show here, only its calls as the tier holds them\.$/,
      );
      // each call with its one-line summary, as the API gives them, in time order
      const session = ci.sessions.find((s) => s.toolCalls > 0);
      expect(session).toBeDefined();
      await page.goto(`${server.url}#/s/${session?.id ?? ''}`);
      const calls = (await api<CallsResponse>(`/sessions/${session?.id ?? ''}/calls`)).calls;
      expect(calls.length).toBe(session?.toolCalls);
      await page.locator('[data-testid=tier-call]').first().waitFor();
      const shown = await page.locator('[data-testid=tier-call] td:nth-child(3)').allInnerTexts();
      expect(shown).toEqual(calls.map((c) => c.summary));
      expect(shown.some((t) => t.includes('not shared'))).toBe(false);
      // the subagent's calls marked as its
      const bySubagent = calls.filter((c) => c.agentId !== null).length;
      expect(bySubagent).toBeGreaterThan(0);
      expect(await page.locator('[data-testid=tier-call-subagent]').count()).toBe(bySubagent);
      await teamShot('04-metadata-session');
      // its waterfall, asked for by address, says why there is none, with the way back to the session
      await page.goto(`${server.url}#/s/${session?.id ?? ''}/waterfall`);
      expect(await page.locator('.err-msg').innerText()).toContain('shared at the metadata tier');
      await page.locator(`.crumbs a[href="#/s/${session?.id ?? ''}"]`).click();
      await page.waitForSelector('[data-testid=tier-notice]');
      expect(problems.splice(0)).toEqual([expect.stringContaining('status of 404')]); // the waterfall's refusal
    });

    it("a full-tier session's timeline renders", async () => {
      const laptop = await api<SessionsResponse>('/sessions?hideEmpty=1&person=ann&device=laptop');
      const full = laptop.sessions.find((s) => s.toolCalls > 0) ?? laptop.sessions[0];
      await page.goto(`${server.url}#/s/${full?.id ?? ''}`);
      await page.waitForSelector('[data-testid=tool-block], [data-testid=assistant]', { timeout: 15_000 });
      expect(await page.locator('[data-testid=session-title]').innerText()).toBe(full?.title ?? '');
      expect(await page.locator('[data-testid=tier-notice]').count()).toBe(0);
      expect(await page.locator('[data-testid=open-waterfall]').count()).toBe(1);
      await teamShot('05-full-session');
      expect(problems).toEqual([]);
    });

    it("a full-tier session's Files page has no link to a file's sessions (no tool inputs are pushed)", async () => {
      const laptop = await api<SessionsResponse>('/sessions?person=ann&device=laptop&limit=200');
      const files = laptop.sessions.find((s) => s.projectPath === '/home/user/proj/files');
      await page.goto(`${server.url}#/s/${files?.id ?? ''}/files`);
      // the rows, and the top bar saying it is a team server: the page knows it is a team's
      await page.waitForSelector('[data-testid=files-changed] [data-testid=file-row]', { timeout: 15_000 });
      await page.waitForSelector('[data-testid=server-mode]');
      expect(await page.locator('[data-testid=file-sessions]').count()).toBe(0);
    });

    /** A `tool_result` event of `sessionId`'s call `callId`, sent to the team port with ann's laptop's token. */
    const sendToolResult = async (sessionId: string, callId: string) => {
      const attributes = [
        ['event.name', 'tool_result'],
        ['session.id', sessionId],
        ['tool_name', 'Bash'],
        ['tool_use_id', callId],
        ['success', 'true'],
        ['duration_ms', '250'],
      ].map(([key, value]) => ({ key, value: { stringValue: value } }));
      const logs = {
        resourceLogs: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'claude-code' } }] },
            scopeLogs: [{ logRecords: [{ timeUnixNano: '1772445600000000000', attributes }] }],
          },
        ],
      };
      const sent = await fetch(`${server.url}v1/logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${laptopToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(logs),
      });
      expect(sent.status).toBe(200);
    };

    it('telemetry a device sends to the team port shows in the open list without a reload', async () => {
      await page.goto(`${server.url}?token=${encodeURIComponent(viewer)}`);
      await page.waitForSelector('[data-testid=session-row]');
      const sessionId = 'e2e-team-telemetry-1';
      await sendToolResult(sessionId, 'toolu_e2e_team_1');
      // told over SSE: the list fetches its telemetry-only sessions again, this page never reloaded
      const row = page.locator(`[data-testid=telemetry-only-row][data-session="${sessionId}"]`);
      await row.waitFor({ timeout: 15_000 });
      await teamShot('06-telemetry-live');
      // opened, it shows the call telemetry reported, and says where a transcript would come from
      await page.goto(`${server.url}#/s/${sessionId}`);
      await page.locator('[data-testid=telemetry-step][data-call=toolu_e2e_team_1]').waitFor();
      expect(await page.getByTestId('telemetry-only-note').innerText()).toMatch(
        /^No transcript of this session was pushed/,
      );
      // the page asks for the pushed session first: its 404s are the way it learns there is none
      expect(problems.splice(0).filter((p) => !p.includes('status of 404'))).toEqual([]);
    });

    it("a pushed session's telemetry shows on its page and marks its row, as on the laptop", async () => {
      // ann's laptop pushed the sample shell session at full; its Claude Code reports one of its calls
      await sendToolResult('5546c9dc-f77a-4128-bec8-c0c6a466b9a7', 'toolu_01Je8ZoR3yRKREO9PWLCrpnG');
      // the one pushed session telemetry names, by the id the list gives it
      const marked = (await api<{ sessionIds: string[] }>('/telemetry/ids')).sessionIds;
      const laptop = await api<SessionsResponse>('/sessions?person=ann&device=laptop&limit=200');
      const shell = laptop.sessions.find((s) => marked.includes(s.id));
      expect([marked.length, shell?.projectPath, shell?.startedAt]).toEqual([
        1,
        '/home/user/proj/shell',
        '2026-11-21T20:23:51.001Z',
      ]);
      await page.goto(`${server.url}#/s/${shell?.id ?? ''}`);
      await page.getByTestId('telemetry-figures').waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('tel-tools-time').getAttribute('data-source')).toBe('measured');
      await page.goto(`${server.url}#/`);
      await page
        .locator(`[data-testid=session-row]:has(a[href="#/s/${shell?.id}"]) [data-testid=telemetry-badge]`)
        .waitFor();
      expect(problems).toEqual([]);
    });
  },
);
