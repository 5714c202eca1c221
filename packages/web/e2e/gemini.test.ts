/**
 * End-to-end: Gemini CLI sessions (both layouts) in the dashboard, in headless Chromium: every tool opens with the
 * renderer of its result's kind. Skips plainly when Chromium or the built dashboard is missing.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallDto, CallRowDto, SessionsResponse } from '@agentdash/api';
import type { RunningServer } from '@agentdash/server';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eMissing, openChromium, type ServedIndex, serveIndexOf } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = resolve(here, '../../core/test/fixtures/gemini');
const homes = [join(fixtures, '0.61.0/.gemini'), join(fixtures, '0.20.2/.gemini')];

const missing = e2eMissing('e2e gemini');

/** The renderer of each result kind a Gemini call is typed onto; a tool of no shared kind: the generic one. */
const RENDERER_OF_KIND: Record<string, string> = {
  bash: 'renderer-Bash',
  read: 'renderer-Read',
  write: 'renderer-Write',
  edit: 'renderer-Edit',
  glob: 'renderer-Glob',
  grep: 'renderer-Grep',
  ls: 'renderer-ls',
  'web-search': 'renderer-WebSearch',
  'web-fetch': 'renderer-WebFetch',
  'todo-write': 'renderer-TodoWrite',
  agent: 'renderer-Agent',
  mcp: 'renderer-mcp',
  memory: 'renderer-memory',
  topic: 'renderer-topic',
  'process-list': 'renderer-process-list',
  'task-complete': 'renderer-task-complete',
  unknown: 'renderer-generic',
  error: 'renderer-generic',
};

describe.skipIf(missing !== undefined)('Gemini sessions in the dashboard (headless Chromium)', () => {
  let served: ServedIndex;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(new URL(`api${path}`, server.url));
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };

  beforeAll(async () => {
    served = await serveIndexOf('agentdash-e2e-gemini-', homes);
    server = served.server;
    ({ context, page } = await openChromium({ problems }));
  });

  afterAll(async () => {
    await context?.close();
    await served?.close();
  });

  it('lists the Gemini sessions with their agent', async () => {
    const list = await api<SessionsResponse>('/sessions?agent=gemini');
    // The header-only stub a resume left is in no list (its file has a resume_stub issue).
    expect(list.total).toBe(20);
    // The list hides empty and warm-up sessions by default, and says so.
    const shown = await api<SessionsResponse>('/sessions?agent=gemini&hideEmpty=1');
    expect(shown.total).toBeGreaterThan(0);
    expect(shown.total + (shown.hiddenEmpty ?? 0)).toBe(20);
    await page.goto(new URL('#/', server.url).toString());
    await page.waitForSelector('[data-testid=session-row]');
    expect(await page.locator('[data-testid=session-row]').count()).toBe(shown.total);
    expect(problems).toEqual([]);
  });

  it('opens each Gemini tool with the renderer of its result kind', async () => {
    const { calls } = await api<{ calls: CallRowDto[] }>('/calls?agent=gemini&limit=1000');
    expect(calls.length).toBe(81);
    // One call per tool and outcome: the kind decides the renderer.
    const picked = new Map<string, CallRowDto>();
    for (const call of calls) {
      const key = `${call.tool}:${call.status}`;
      if (!picked.has(key)) picked.set(key, call);
    }
    const seen: string[] = [];
    for (const call of picked.values()) {
      const full = await api<CallDto>(
        `/sessions/${encodeURIComponent(call.sessionId)}/calls/${encodeURIComponent(call.callId)}`,
      );
      // As the dashboard decides: the result's kind, else (a failed call) the kind of its tool, else generic.
      const typed = (full.result?.typed as { kind?: string } | undefined)?.kind ?? 'unknown';
      const kind = typed !== 'error' && typed !== 'unknown' ? typed : (full.toolKind ?? typed);
      await page.goto(
        new URL(
          `#/s/${encodeURIComponent(call.sessionId)}?call=${encodeURIComponent(call.callId)}`,
          server.url,
        ).toString(),
      );
      const block = page.locator(`[data-call="${call.callId}"].open`).first();
      await block.waitFor({ timeout: 15_000 });
      // Gemini CLI cannot resume a session by id: no Resume button.
      expect(await page.locator('[data-testid=copy-resume]').count()).toBe(0);
      const renderer = block.locator('[data-testid^=renderer-]').first();
      await renderer.waitFor({ timeout: 5000 });
      const id = (await renderer.getAttribute('data-testid')) ?? '';
      seen.push(`${call.tool}:${kind}→${id}`);
      expect(`${call.tool}:${kind} → ${id}`).toBe(
        `${call.tool}:${kind} → ${RENDERER_OF_KIND[kind] ?? 'renderer-generic'}`,
      );
    }
    console.log(`[e2e gemini] ${seen.join(', ')}`);
    expect(problems).toEqual([]);
  });
});
