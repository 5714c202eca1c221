import { describe, expect, it } from 'vitest';
import { MAX_DAYS } from '../pages/usage/day-range';
import { timeDayRows } from './time-days';

const day = (date: string, hours: number) => ({
  date,
  sessions: 1,
  wallMs: hours * 3_600_000,
  modelMs: hours * 3_600_000,
  toolMs: 0,
  userMs: 0,
  idleMs: 0,
});

describe('where the time went, by day', () => {
  it('has a bar for every day from the first to the last, the days without activity empty', () => {
    const { rows, unit } = timeDayRows([day('2026-03-01', 2), day('2026-03-04', 1)]);
    expect(unit).toBe('day');
    expect(rows.map((r) => [r.date, r.modelMs])).toEqual([
      ['2026-03-01', 2],
      ['2026-03-02', 0],
      ['2026-03-03', 0],
      ['2026-03-04', 1],
    ]);
  });

  it('past MAX_DAYS, sums the days into weeks, every week from the first to the last', () => {
    const { rows, unit } = timeDayRows([day('2024-01-03', 1), day('2024-01-04', 2), day('2026-06-01', 3)]);
    expect(unit).toBe('week');
    expect(rows.length).toBeLessThanOrEqual(MAX_DAYS);
    expect(rows[0]).toMatchObject({ date: '2024-01-01', modelMs: 3 });
    expect(rows[rows.length - 1]).toMatchObject({ date: '2026-06-01', modelMs: 3 });
    expect(rows.reduce((n, r) => n + r.modelMs, 0)).toBe(6);
  });
});
