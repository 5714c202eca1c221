/**
 * The export route of a session too big to load (the session host told it is larger than the heap, and unable to
 * load it) sends every format as the session is read, the same bytes the route sends for the loaded session.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../test/app-harness.js';
import type { SessionsResponse } from './api-types.js';
import { createApp } from './app.js';
import { exportFormats } from './export-formats.js';
import { createLocalSessionHost } from './session-host.js';

const HOST = { host: '127.0.0.1:4317' };

let t: TestApp;
beforeAll(async () => {
  t = await appOver([SAMPLES], { exportViewer: true });
});
afterAll(() => t.close());

/** The answer's text and what the route says of it, the HTML page's export time aside. */
async function download(res: Response) {
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    redacted: res.headers.get('x-agentdash-redacted'),
    text: (await res.text()).replace(/"exportedAt":"[^"]*"/, '"exportedAt":""'),
  };
}

describe('GET /api/sessions/:id/export of a session too big to load', () => {
  it('is written as the session is read, in every format, as the loaded session is', async () => {
    const streamed = createApp({
      index: t.index,
      paths: [SAMPLES],
      host: '127.0.0.1',
      port: 4317,
      assetsDir: join(t.tmp, 'assets'),
      sessions: createLocalSessionHost({
        loadSession: () => Promise.reject(new Error('loaded whole')),
        sessionFiles: (ref) => t.index.sessionFiles(ref),
        streamSession: (ref) => t.index.streamSession(ref),
        sessionBytes: () => 2 ** 40,
      }),
    });
    const list = (await (await t.app.request('/api/sessions', { headers: HOST })).json()) as SessionsResponse;
    // the sessions of most calls, and ones with errors and with secrets
    const chosen = new Set([
      ...list.sessions.toSorted((a, b) => b.toolCalls - a.toolCalls).slice(0, 3),
      ...list.sessions.filter((s) => s.errors > 0).slice(0, 2),
      ...list.sessions.filter((s) => s.secrets > 0).slice(0, 2),
    ]);
    expect(chosen.size).toBeGreaterThan(3);
    for (const session of chosen) {
      for (const format of exportFormats) {
        for (const redact of ['1', '0']) {
          const path = `/api/sessions/${session.id}/export?format=${format}&redact=${redact}`;
          const got = await download(await streamed.request(path, { headers: HOST }));
          expect(got.status, `${path}: ${got.text.slice(0, 200)}`).toBe(200);
          expect(got, path).toEqual(await download(await t.app.request(path, { headers: HOST })));
        }
      }
    }
  });
});
