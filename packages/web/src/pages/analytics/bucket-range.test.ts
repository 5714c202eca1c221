import { describe, expect, it } from 'vitest';
import type { DayRow } from '../../data/types';
import { axisLabelOf, bucketRange, MAX_BUCKETS, untimedCalls } from './bucket-range';

const row = (day: string, calls = 1): DayRow => ({ day, calls, errors: 0, expectedErrors: 0 });
const days = (rows: readonly DayRow[]) => rows.map((r) => r.day);

describe('bucketRange', () => {
  it('fills the empty 5-minute buckets, so that an hour apart is twelve buckets apart and 5 minutes one', () => {
    const filled = bucketRange([row('2026-03-01T10:00'), row('2026-03-01T10:05'), row('2026-03-01T11:05')], 'minute');
    expect(filled).toHaveLength(14);
    expect(days(filled).indexOf('2026-03-01T10:05') - days(filled).indexOf('2026-03-01T10:00')).toBe(1);
    expect(days(filled).indexOf('2026-03-01T11:05') - days(filled).indexOf('2026-03-01T10:05')).toBe(12);
    expect(filled[2]).toEqual({ day: '2026-03-01T10:10', calls: 0, errors: 0, expectedErrors: 0 });
    expect(filled.reduce((n, r) => n + r.calls, 0)).toBe(3);
  });

  it('fills hours, days and weeks across midnight and month ends; the calls without a time are counted apart', () => {
    const rows = [row('2026-03-01T22:00'), row('2026-03-02T01:00'), row('unknown', 87)];
    expect(days(bucketRange(rows, 'hour'))).toEqual([
      '2026-03-01T22:00',
      '2026-03-01T23:00',
      '2026-03-02T00:00',
      '2026-03-02T01:00',
    ]);
    expect(untimedCalls(rows)).toBe(87);
    expect(days(bucketRange([row('2026-02-27'), row('2026-03-01')], 'day'))).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
    ]);
    expect(days(bucketRange([row('2026-02-23'), row('2026-03-16')], 'week'))).toEqual([
      '2026-02-23',
      '2026-03-02',
      '2026-03-09',
      '2026-03-16',
    ]);
    expect(bucketRange([], 'minute')).toEqual([]);
    expect(bucketRange([row('unknown')], 'day')).toEqual([]);
    expect(untimedCalls([row('2026-03-01')])).toBe(0);
  });

  it('keeps the buckets as they are past a span too long to draw a bar each', () => {
    const far = [row('2020-01-01'), row('2026-01-01')];
    expect(bucketRange(far, 'day')).toEqual(far);
    // Six years are 314 weeks: filled.
    expect(bucketRange([row('2019-12-30'), row('2025-12-29')], 'week')).toHaveLength(314);
    expect(bucketRange([row('2025-01-01'), row('2026-02-04')], 'day')).toHaveLength(MAX_BUCKETS);
  });

  it("labels the 5-minute and hour buckets in the browser's time zone, as the rest of the page", () => {
    expect(axisLabelOf('2026-03-01T22:05', 'minute', 'UTC')).toBe('03-01 22:05');
    expect(axisLabelOf('2026-03-01T22:00', 'hour', 'Asia/Tokyo')).toBe('03-02 07:00');
    expect(axisLabelOf('2026-03-01T22:00', 'hour', 'America/New_York')).toBe('03-01 17:00');
    expect(axisLabelOf('2026-03-01', 'day', 'Asia/Tokyo')).toBe('2026-03-01');
  });
});
