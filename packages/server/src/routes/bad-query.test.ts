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
  ['/api/sessions?since=not-a-date', 'since must be a day'],
  ['/api/usage?until=2025-02-30', 'until must be a day'],
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
  ['/api/stats?until=tomorrow-ish', 'until must be a day'],
  ['/api/stats?agent=robot', 'agent must be one of'],
  ['/api/usage?tz=Mars%2FOlympus', 'tz must be an IANA time zone name'],
  ['/api/usage?since=yesterday-ish', 'since must be a day'],
  // what `Date.parse` reads loosely, and the CLI refuses: `1` (2001), `Apr 1` (2001), a time on a day of no calendar
  ['/api/sessions?since=1', 'since must be a day (2026-01-31) or an ISO time'],
  ['/api/usage?since=Apr%201', 'since must be a day'],
  ['/api/stats?since=2026-02-30T00:00Z', 'since must be a day'],
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
      '/api/stats?since=2026-01-01T10:00%2B02:00&until=2026-01-02%2010:00Z',
      '/api/usage?tz=UTC',
      '/api/calls?status=error&severity=expected&category=exit-code&limit=99999',
    ];
    for (const path of ok) expect((await t.app.request(path, { headers: HOST })).status, path).toBe(200);
    // a limit past the largest page is cut to it, not refused
    const page = await t.json<SessionsResponse>('/api/sessions?limit=5000');
    expect(page.sessions.length).toBe(page.total);
  });
});

describe('a time in a query', () => {
  it('is read as the CLI reads --since (a compact day, an offset, a space), and filters as its ISO text would', async () => {
    const figures = async (query: string) => {
      const stats = await t.json<{ totals: { calls: number } }>(`/api/stats?${query}`);
      return JSON.stringify(stats.totals);
    };
    // the samples' calls run from 20:17 to past 20:26 on 2026-11-21: a cut inside them, written four ways
    const iso = await figures('since=2026-11-21T20:24:00.000Z');
    // a cut that leaves some calls out and keeps others
    expect(iso).not.toBe(await figures('since=2020-01-01'));
    expect(JSON.parse(iso).calls).toBeGreaterThan(0);
    expect(await figures('since=20261121T20:24Z')).toBe(iso);
    expect(await figures('since=2026-11-21T22:24%2B02:00')).toBe(iso);
    expect(await figures('since=2026-11-21%2020:24Z')).toBe(iso);
  });
});
