import { describe, expect, it } from 'vitest';
import { dayBuckets, firstOfLastDays, MAX_DAYS } from './day-range';

describe('dayBuckets', () => {
  it('fills the days without usage between the first and the last', () => {
    const days = (dates: string[]) => dayBuckets(dates).keys;
    expect(days(['2025-12-30', '2026-01-02'])).toEqual(['2025-12-30', '2025-12-31', '2026-01-01', '2026-01-02']);
    expect(days(['2026-03-28', '2026-03-30'])).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect(days(['2026-02-01'])).toEqual(['2026-02-01']);
    expect(days([])).toEqual([]);
    expect(days(['2025-01-01', '2026-02-04'])).toHaveLength(MAX_DAYS);
  });

  it('past a span too long for a bar a day, a bar a week, gaps kept: no two far days drawn side by side', () => {
    // The wild homes' days: June 2025 to November 2026 (they were drawn as adjacent days past 400 days).
    const buckets = dayBuckets(['2025-06-14', '2025-10-26', '2026-11-23']);
    expect(buckets.unit).toBe('week');
    expect(buckets.keys[0]).toBe('2025-06-09');
    expect(buckets.keys.at(-1)).toBe('2026-11-23');
    expect(buckets.keys).toHaveLength(77);
    expect(['2025-06-14', '2025-10-26', '2026-11-23'].map(buckets.keyOf)).toEqual([
      '2025-06-09',
      '2025-10-20',
      '2026-11-23',
    ]);
    expect(buckets.keys.indexOf('2025-10-20') - buckets.keys.indexOf('2025-06-09')).toBe(19);
  });

  it('past MAX_DAYS weeks, a bar a month', () => {
    const buckets = dayBuckets(['2018-01-15', '2026-03-02']);
    expect(buckets.unit).toBe('month');
    expect([buckets.keys[0], buckets.keys.at(-1), buckets.keys.length]).toEqual(['2018-01-01', '2026-03-01', 99]);
    expect(buckets.keyOf('2020-02-29')).toBe('2020-02-01');
  });
});

describe('firstOfLastDays', () => {
  it('is the first of that many whole local days, today the last (the suites run in UTC)', () => {
    const late = new Date('2026-12-06T22:00:00Z');
    expect(firstOfLastDays(7, late)).toBe('2026-11-30');
    expect(firstOfLastDays(30, late)).toBe('2026-11-07');
    expect(firstOfLastDays(1, new Date('2026-03-01T00:00:00Z'))).toBe('2026-03-01');
    // across a month and a year
    expect(firstOfLastDays(7, new Date('2026-01-03T09:00:00Z'))).toBe('2025-12-28');
    // 7 bars: the days from the first to today
    expect(dayBuckets([firstOfLastDays(7, late), '2026-12-06']).keys).toHaveLength(7);
  });
});
