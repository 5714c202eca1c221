import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionsResponse } from './api-types.js';
import { createApp } from './app.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');
const HOST = { host: '127.0.0.1:4317' };

let tmp: string;
let index: AgentIndex;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-export-route-'));
  const assetsDir = join(tmp, 'assets');
  await mkdir(join(assetsDir, 'export'), { recursive: true });
  await writeFile(join(assetsDir, 'index.html'), '<!doctype html><title>AgentDash test</title>');
  await writeFile(join(assetsDir, 'export', 'export.js'), 'document.title = "viewer";');
  await writeFile(join(assetsDir, 'export', 'export.css'), 'body{color:red}');
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  await index.refresh([samples]);
  app = createApp({ index, paths: [samples], host: '127.0.0.1', port: 4317, assetsDir });
});
afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('GET /api/sessions/:id/export.html', () => {
  it('streams one self-contained HTML file with the session embedded and the viewer inlined', async () => {
    const list = (await (await app.request('/api/sessions', { headers: HOST })).json()) as SessionsResponse;
    const session = list.sessions.find((s) => s.toolCalls > 5);
    expect(session).toBeDefined();
    const res = await app.request(`/api/sessions/${session?.id}/export.html`, { headers: HOST });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="agentdash-${session?.id.slice(0, 8)}.html"`,
    );
    const html = await res.text();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.includes('<script type="module">document.title = "viewer";</script>')).toBe(true);
    expect(html.includes('<style>body{color:red}</style>')).toBe(true);
    const data = /<script type="application\/json" id="agentdash-data">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    const parsed = JSON.parse(data) as { sessionId: string; threads: Record<string, unknown[]>; redaction: unknown };
    expect(parsed.sessionId).toBe(session?.id);
    expect((parsed.threads[''] ?? []).length).toBeGreaterThan(0);
    expect(parsed.redaction).toEqual({ redacted: true, total: 0, summary: 'no secrets found' });
  });

  it('404 for an unknown session', async () => {
    const res = await app.request('/api/sessions/ffffffff-0000-4000-8000-000000000000/export.html', { headers: HOST });
    expect(res.status).toBe(404);
  });
});
