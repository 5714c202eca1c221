import type { AgentIndex, AnalyticsFilter, CallAnalytics, ToolStats } from '@agentdash/index';
import { describe, expect, it } from 'vitest';
import { statsResponse } from './stats-response.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** How many times the fake index computed tool statistics. */
const statsCalls = { count: 0 };

/** An index whose calls span `spanMs` from 2026-03-01T10:07:00Z, with canned aggregates. */
function fakeIndex(spanMs: number, seen: AnalyticsFilter[] = []): AgentIndex {
  const toolStats: ToolStats = {
    sessions: 7,
    calls: 0,
    paired: 0,
    errors: 0,
    expectedErrors: 0,
    tools: {},
    byCanonical: {},
  };
  const first = Date.parse('2026-03-01T10:07:00Z');
  const analytics = (filter: AnalyticsFilter): CallAnalytics => {
    seen.push(filter);
    const bucketMs = typeof filter.bucketMs === 'function' ? filter.bucketMs(spanMs) : filter.bucketMs;
    const offset = filter.bucketOffsetMs ?? 0;
    const start = Math.floor((first - offset) / bucketMs) * bucketMs + offset;
    return {
      calls: 10,
      errors: 4,
      expectedErrors: 1,
      firstMs: first,
      lastMs: first + spanMs,
      bucketMs,
      buckets: [
        { startMs: start, calls: 6, errors: 3, expectedErrors: 1 },
        { startMs: null, calls: 4, errors: 1, expectedErrors: 0 },
      ],
      projects: [{ project: '/p', sessions: 2, calls: 10, errors: 4, expectedErrors: 1 }],
      tools: [
        { tool: 'Bash', calls: 8, errors: 4, expectedErrors: 1, durations: [1, 2, 0, 0, 0, 3] },
        { tool: 'Grep', calls: 2, errors: 0, expectedErrors: 0, durations: [0, 0, 0, 0, 0, 0] },
      ],
      durationBoundsMs: filter.durationBoundsMs ?? [],
      durations: [1, 2, 0, 0, 0, 3],
      categories: [{ category: 'exit-code', severity: 'error', count: 3 }],
    };
  };
  // Every session in scope is Claude Code's.
  const sessionTotals = (filter: { agent?: string }) => ({
    total: filter.agent === undefined || filter.agent === 'claude' ? toolStats.sessions : 0,
  });
  return {
    stats: () => {
      statsCalls.count += 1;
      return toolStats;
    },
    analytics,
    sessionTotals,
  } as unknown as AgentIndex;
}

describe('statsResponse', () => {
  it('lists the agents with sessions in scope, and computes the statistics once when one agent has them all', () => {
    statsCalls.count = 0;
    const body = statsResponse(fakeIndex(DAY), {});
    expect(body.agents.map((a) => [a.agent, a.sessions])).toEqual([['claude', 7]]);
    expect(statsCalls.count).toBe(1);
  });

  it('uses 5-minute buckets up to 6 hours of calls, hours up to 4 days, days up to a year, else weeks from Monday', () => {
    const cases: [number, string, string][] = [
      [0, 'minute', '2026-03-01T10:05'],
      [6 * HOUR, 'minute', '2026-03-01T10:05'],
      [6 * HOUR + 1, 'hour', '2026-03-01T10:00'],
      [4 * DAY, 'hour', '2026-03-01T10:00'],
      [4 * DAY + 1, 'day', '2026-03-01'],
      [366 * DAY, 'day', '2026-03-01'],
      // 2026-03-01 is a Sunday: its week began on Monday 2026-02-23.
      [366 * DAY + 1, 'week', '2026-02-23'],
    ];
    for (const [span, granularity, day] of cases) {
      const body = statsResponse(fakeIndex(span), {});
      expect(body.granularity, String(span)).toBe(granularity);
      expect(body.days.map((d) => d.day)).toEqual([day, 'unknown']);
    }
  });

  it('passes the filter and the histogram bounds, and maps the aggregates', () => {
    const seen: AnalyticsFilter[] = [];
    const body = statsResponse(fakeIndex(DAY, seen), { project: 'p', since: '2026-03-01', paths: ['/home'] });
    expect(seen).toMatchObject([
      { project: 'p', since: '2026-03-01', paths: ['/home'], durationBoundsMs: [100, 1_000, 5_000, 30_000, 120_000] },
    ]);
    // days, projects and totals alike: errors count the expected ones, counted apart too
    expect(body.days[0]).toEqual({ day: '2026-03-01T10:00', calls: 6, errors: 3, expectedErrors: 1 });
    expect(body.projects).toEqual([{ project: '/p', sessions: 2, calls: 10, errors: 4, expectedErrors: 1 }]);
    expect(body.totals).toEqual({ calls: 10, errors: 4, expectedErrors: 1, sessions: 7 });
    expect(body.durations.map((b) => [b.label, b.maxMs, b.count])).toEqual([
      ['< 100 ms', 100, 1],
      ['< 1 s', 1_000, 2],
      ['< 5 s', 5_000, 0],
      ['< 30 s', 30_000, 0],
      ['< 2 min', 120_000, 0],
      ['≥ 2 min', null, 3],
    ]);
    // only tools with a duration have a histogram
    expect(Object.keys(body.durationsByTool)).toEqual(['Bash']);
    expect(body.categories).toEqual([{ category: 'exit-code', severity: 'error', count: 3 }]);
  });
});
