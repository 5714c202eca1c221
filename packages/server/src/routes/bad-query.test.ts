import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../../test/app-harness.js';
import type { SessionsResponse } from '../api-types.js';

const HOST = { host: '127.0.0.1:4317' };

let t: TestApp;
let id: string;
beforeAll(async () => {
  t = await appOver([SAMPLES]);
  id = (await t.json<SessionsResponse>('/api/sessions')).sessions[0]!.id;
});
afterAll(() => t.close());

/** Each route with a query, and for each a parameter of the wrong type, out of range, and not one of its values. */
const cases = (session: string): readonly (readonly [string, string])[] => [
  ['/api/sessions?limit=ten', 'limit must be a non-negative integer'],
  ['/api/sessions?offset=-1', 'offset must be a non-negative integer'],
  ['/api/sessions?sort=mood', 'sort must be one of'],
  ['/api/sessions?dir=up', 'dir must be one of asc, desc'],
  ['/api/sessions?agent=nope', 'agent must be one of claude, codex'],
  ['/api/sessions?since=not-a-date', 'since must be a date'],
  ['/api/usage?until=2025-02-30', 'until must be a date'],
  ['/api/sessions?hasErrors=maybe', 'hasErrors must be true, false, 1 or 0'],
  [`/api/sessions?file=/${'a'.repeat(4096)}`, 'file must be at most 4096 characters'],
  ['/api/sessions?file=/src/a%00.ts', 'file must not hold a NUL character'],
  [`/api/sessions/${session}/events?limit=abc`, 'limit must be a non-negative integer'],
  [`/api/sessions/${session}/events?offset=-5`, 'offset must be a non-negative integer'],
  [`/api/sessions/${session}/events?all=yes`, 'all must be true, false, 1 or 0'],
  [`/api/sessions/${session}/calls?limit=many`, 'limit must be a non-negative integer'],
  [`/api/sessions/${session}/find`, 'q is required'],
  [`/api/sessions/${session}/find?q=%00`, 'q is required'],
  [`/api/sessions/${session}/export?format=pdf`, 'format must be one of html, markdown, json, envelope'],
  ['/api/stats?until=tomorrow-ish', 'until must be a date'],
  ['/api/stats?agent=robot', 'agent must be one of'],
  ['/api/usage?tz=Mars%2FOlympus', 'tz must be an IANA time zone name'],
  ['/api/usage?since=yesterday-ish', 'since must be a date'],
  ['/api/calls?limit=1e3', 'limit must be a non-negative integer'],
  ['/api/calls?status=fine', 'status must be one of ok, error, pending, unanswered'],
  ['/api/calls?severity=mild', 'severity must be one of expected, error'],
  ['/api/calls?category=gremlins', 'category must be one of'],
];

describe('a bad query', () => {
  it('is a 400 with the error envelope and the BAD_QUERY code on every route', async () => {
    for (const [path, message] of cases(id)) {
      const res = await t.app.request(path, { headers: HOST });
      expect(res.status, path).toBe(400);
      const body = (await res.json()) as { success: boolean; error: string; code: string };
      expect(body, path).toEqual({ success: false, error: expect.stringContaining(message), code: 'BAD_QUERY' });
    }
  });

  it('is only the parameter that is wrong: good, repeated, empty and unknown ones answer 200', async () => {
    const ok = [
      '/api/sessions?limit=5000&offset=0&sort=costUsd&dir=asc&hasErrors=0&wait=1',
      '/api/sessions?agent=claude&agent=nope',
      '/api/sessions?sort=&dir=&agent=&since=',
      `/api/sessions/${id}/events?limit=100000&all=1`,
      `/api/sessions/${id}/export?format=markdown&redact=0`,
      '/api/stats?agent=claude&since=2026-01-01',
      '/api/usage?tz=UTC',
      '/api/calls?status=error&severity=expected&category=exit-code&limit=99999',
    ];
    for (const path of ok) expect((await t.app.request(path, { headers: HOST })).status, path).toBe(200);
    // a limit past the largest page is cut to it, not refused
    const page = await t.json<SessionsResponse>('/api/sessions?limit=5000');
    expect(page.sessions.length).toBe(page.total);
  });
});
