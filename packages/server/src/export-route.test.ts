import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../test/app-harness.js';
import type { AgentInfo, AgentsResponse, SessionsResponse } from './api-types.js';

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
    expect(parsed.redaction).toEqual({ redacted: true, total: 0, summary: 'no secrets found' });
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
