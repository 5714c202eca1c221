/**
 * `GET /api/stats?since=…`: the tools' rows, the totals and the charts count the same calls, those made in the period
 * (a review found `tools: Bash 2` beside `totals.calls 1`: the rows counted every call of a session active since the
 * day, the totals and charts the calls made since it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../test/app-harness.js';
import type { StatsResponse } from './api-types.js';

let t: TestApp;
beforeAll(async () => {
  t = await appOver([SAMPLES]);
});
afterAll(() => t.close());

const sum = (rows: readonly { calls: number }[]) => rows.reduce((n, r) => n + r.calls, 0);

describe('the statistics of a period', () => {
  it('count the calls made in it, in every part of the answer', async () => {
    const all = await t.json<StatsResponse>('/api/stats');
    // the samples' calls run from 20:17 to past 20:26 on 2026-11-21: a cut inside sessions as well as between them
    for (const query of ['since=2026-11-21T20:24:00Z', 'until=2026-11-21T20:24:00Z', 'since=2026-11-21T20:20:00Z']) {
      const part = await t.json<StatsResponse>(`/api/stats?${query}`);
      expect(part.totals.calls, query).toBeGreaterThan(0);
      expect(part.totals.calls, query).toBeLessThan(all.totals.calls);
      expect(sum(part.tools), query).toBe(part.totals.calls);
      expect(sum(part.days), query).toBe(part.totals.calls);
      expect(sum(part.agents), query).toBe(part.totals.calls);
    }
    const since = await t.json<StatsResponse>('/api/stats?since=2026-11-21T20:24:00Z');
    const until = await t.json<StatsResponse>('/api/stats?until=2026-11-21T20:23:59.999Z');
    expect(since.totals.calls + until.totals.calls).toBe(all.totals.calls);
  });
});
