import { redactSession } from '@agentdash/core/secrets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../test/app-harness.js';
import type { AgentInfo, AgentsResponse, SessionsResponse } from './api-types.js';
import { envelopeLines, jsonLines, markdownChunks } from './export-formats.js';

const HOST = { host: '127.0.0.1:4317' };

let t: TestApp;
beforeAll(async () => {
  t = await appOver([SAMPLES], { exportViewer: true });
});
afterAll(() => t.close());

describe('GET /api/sessions/:id/export.html', () => {
  it('streams one self-contained HTML file with the session embedded and the viewer inlined', async () => {
    const list = (await (await t.app.request('/api/sessions', { headers: HOST })).json()) as SessionsResponse;
    const session = list.sessions.find((s) => s.toolCalls > 5);
    expect(session).toBeDefined();
    const res = await t.app.request(`/api/sessions/${session?.id}/export.html`, { headers: HOST });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="agentdash-${session?.id.slice(0, 8)}.html"`,
    );
    const html = await res.text();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.includes('<script type="module">document.title = "viewer";</script>')).toBe(true);
    expect(html.includes('<style>body{color:red}</style>')).toBe(true);
    const data = /<script type="application\/json" id="agentdash-data">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    const parsed = JSON.parse(data) as {
      sessionId: string;
      threads: Record<string, unknown[]>;
      redaction: unknown;
      agents: AgentInfo[];
    };
    expect(parsed.sessionId).toBe(session?.id);
    expect((parsed.threads[''] ?? []).length).toBeGreaterThan(0);
    expect(parsed.redaction).toEqual({ redacted: true, total: 0, secrets: 0, summary: 'no secrets found' });
    // The page shows badges and the Resume command with no server: the agents are embedded as `/api/agents` has them.
    const served = (await (await t.app.request('/api/agents', { headers: HOST })).json()) as AgentsResponse;
    expect(parsed.agents).toEqual(served.agents);
  });

  it('404 for an unknown session', async () => {
    const res = await t.app.request('/api/sessions/ffffffff-0000-4000-8000-000000000000/export.html', {
      headers: HOST,
    });
    expect(res.status).toBe(404);
  });
});

async function textOf(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

describe('GET /api/sessions/:id/export?format=', () => {
  // The dashboard's Export menu offers every format the CLI writes (issue 36, item 7), with the same bytes.
  it('sends markdown, json and envelope as agentdash export writes them, and html as export.html does', async () => {
    const list = (await (await t.app.request('/api/sessions', { headers: HOST })).json()) as SessionsResponse;
    const session = list.sessions.find((s) => s.toolCalls > 5);
    const id = session?.id ?? '';
    const loaded = await t.index.loadSession(id);
    const redacted = redactSession(loaded).session;
    // json and envelope first, before anything loads the session (a huge one would be written as it is read)
    const expected: Record<string, { type: string; ext: string; text: string }> = {
      json: { type: 'application/json; charset=utf-8', ext: 'json', text: [...jsonLines(redacted)].join('') },
      envelope: {
        type: 'application/x-ndjson; charset=utf-8',
        ext: 'jsonl',
        text: [...envelopeLines(redacted)].join(''),
      },
      markdown: { type: 'text/markdown; charset=utf-8', ext: 'md', text: await textOf(markdownChunks(redacted)) },
    };
    for (const [format, want] of Object.entries(expected)) {
      const res = await t.app.request(`/api/sessions/${id}/export?format=${format}`, { headers: HOST });
      expect(res.status, format).toBe(200);
      expect(res.headers.get('content-type'), format).toBe(want.type);
      expect(res.headers.get('content-disposition'), format).toBe(
        `attachment; filename="agentdash-${id.slice(0, 8)}.${want.ext}"`,
      );
      expect(await res.text(), format).toBe(want.text);
    }
    const envelope = expected.envelope?.text.trim().split('\n') ?? [];
    expect(envelope.length).toBe(loaded.calls.length);
    const html = await t.app.request(`/api/sessions/${id}/export?format=html`, { headers: HOST });
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await html.text()).startsWith('<!doctype html>')).toBe(true);
  });

  it('400 for a format it does not write', async () => {
    const list = (await (await t.app.request('/api/sessions', { headers: HOST })).json()) as SessionsResponse;
    const res = await t.app.request(`/api/sessions/${list.sessions[0]?.id}/export?format=pdf`, { headers: HOST });
    expect(res.status).toBe(400);
  });
});

describe('what the HTML export says of its redaction', () => {
  it('gives the secrets, each once, beside the redactions made', async () => {
    const { exportRedaction } = await import('./export-html.js');
    // One secret redacted twice (a result's text and its structured copy): core's scan.test.ts counts it so.
    const report = { total: 2, distinct: 1, summary: () => '1 secret, redacted 2 times' } as unknown as Parameters<
      typeof exportRedaction
    >[1];
    // Before: the page said "2 secrets redacted" where `agentdash secrets` says one.
    expect(exportRedaction(true, report)).toEqual({
      redacted: true,
      total: 2,
      secrets: 1,
      summary: '1 secret, redacted 2 times',
    });
  });
});
