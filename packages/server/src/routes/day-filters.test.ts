import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../../test/app-harness.js';
import type { SessionsResponse, StatsResponse, UsageResponse } from '../api-types.js';

let t: TestApp;
beforeAll(async () => {
  t = await appOver([SAMPLES]);
});
afterAll(() => t.close());

// Zones on both sides of UTC, far enough apart that their days split the samples' responses differently.
const zones = ['Pacific/Kiritimati', 'UTC', 'America/Los_Angeles'] as const;

describe('a bare day in since/until', () => {
  // Before: `until=YYYY-MM-DD` was that day's first instant in UTC, so the day itself was left out (0 responses on a
  // day of the samples), and a bare `since` ignored `tz`.
  it.each(zones)('is that whole day in tz %s: a day filtered alone has the responses its row counts', async (tz) => {
    const all = await t.json<UsageResponse>(`/api/usage?tz=${encodeURIComponent(tz)}`);
    expect(all.days.length).toBeGreaterThan(0);
    for (const day of all.days) {
      const one = await t.json<UsageResponse>(
        `/api/usage?tz=${encodeURIComponent(tz)}&since=${day.date}&until=${day.date}`,
      );
      expect([day.date, one.totals.responses]).toEqual([day.date, day.responses]);
      expect(one.days.map((d) => d.date)).toEqual([day.date]);
    }
  });
});

describe('the same bare days on the other dated routes', () => {
  it('keep the whole of a day that holds every call and session (stats, sessions; UTC)', async () => {
    const usage = await t.json<UsageResponse>('/api/usage?tz=UTC');
    const first = usage.days[0]?.date;
    const last = usage.days.at(-1)?.date;
    const all = await t.json<StatsResponse>('/api/stats?tz=UTC');
    const dated = await t.json<StatsResponse>(`/api/stats?tz=UTC&since=${first}&until=${last}`);
    expect(dated.totals).toEqual(all.totals);
    const listed = await t.json<SessionsResponse>(`/api/sessions?since=${first}&until=${last}`);
    expect(listed.total).toBe(all.totals.sessions);
  });
});
