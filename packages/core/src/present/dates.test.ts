import { describe, expect, it } from 'vitest';
import { dayBoundMs, formatDateTime, formatRange, formatRelative, localDayBoundMs } from './dates.js';

// Tests run with TZ=UTC.
const now = Date.parse('2026-11-23T12:00:00Z');

describe('dates', () => {
  it('the year only when it is not this year', () => {
    expect(formatDateTime('2026-11-21T20:27:07Z', now)).toBe('Nov 21 20:27');
    expect(formatDateTime('2025-03-04T05:06:07Z', now)).toBe('Mar 4, 2025 05:06');
    expect(formatDateTime('not a date', now)).toBe('—');
  });

  it('a range writes its date once when both ends fall on one day', () => {
    expect(formatRange('2026-11-21T20:27:00Z', '2026-11-21T22:10:00Z', now)).toBe('Nov 21 20:27 – 22:10');
    expect(formatRange('2024-12-31T23:00:00Z', '2025-01-01T01:00:00Z', now)).toBe(
      'Dec 31, 2024 23:00 – Jan 1, 2025 01:00',
    );
  });

  it('relative times fall back to the date after a week', () => {
    expect(formatRelative('2026-11-23T11:55:00Z', now)).toBe('5 min ago');
    expect(formatRelative('2026-11-01T11:55:00Z', now)).toBe('Nov 1 11:55');
  });
});

describe('dayBoundMs', () => {
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
  it('is a day’s first and last millisecond in a time zone, across daylight-saving changes', () => {
    expect(iso(dayBoundMs('2026-11-22', false, 'Pacific/Kiritimati'))).toBe('2026-11-21T10:00:00.000Z');
    expect(iso(dayBoundMs('2026-11-22', true, 'Pacific/Kiritimati'))).toBe('2026-11-22T09:59:59.999Z');
    // 23 hours long in Los Angeles: clocks go from 02:00 to 03:00
    expect(iso(dayBoundMs('2026-03-08', false, 'America/Los_Angeles'))).toBe('2026-03-08T08:00:00.000Z');
    expect(iso(dayBoundMs('2026-03-08', true, 'America/Los_Angeles'))).toBe('2026-03-09T06:59:59.999Z');
    expect(iso(dayBoundMs('2026-10-25', false, 'Europe/Paris'))).toBe('2026-10-24T22:00:00.000Z');
    expect(iso(dayBoundMs('2026-10-25', true, 'Europe/Paris'))).toBe('2026-10-25T22:59:59.999Z');
  });
  // A review: where the clocks skip midnight the day started an hour early (the day before lost its last hour).
  it('starts a day whose midnight the clocks skip at its first instant', () => {
    expect(iso(dayBoundMs('2025-09-07', false, 'America/Santiago'))).toBe('2025-09-07T04:00:00.000Z');
    expect(iso(dayBoundMs('2025-09-06', true, 'America/Santiago'))).toBe('2025-09-07T03:59:59.999Z');
    expect(iso(dayBoundMs('2025-03-09', false, 'America/Havana'))).toBe('2025-03-09T05:00:00.000Z');
    expect(iso(dayBoundMs('2018-11-04', false, 'America/Sao_Paulo'))).toBe('2018-11-04T03:00:00.000Z');
  });

  it('is the local day without a zone, and nothing for a time or a day the calendar has not', () => {
    expect(dayBoundMs('2025-02-30', false, 'UTC')).toBeUndefined();
    expect(dayBoundMs('2026-11-22', false)).toBe(localDayBoundMs(2026, 11, 22, false));
    expect(dayBoundMs('2026-11-22T10:00:00Z', false, 'UTC')).toBeUndefined();
  });
});

describe('a local day of a year below 100', () => {
  it('is that year, not 19xx (a year written in four digits means itself)', () => {
    expect(new Date(localDayBoundMs(50, 1, 1, false)).getFullYear()).toBe(50);
    expect(new Date(localDayBoundMs(50, 12, 31, true)).getFullYear()).toBe(50);
    expect(localDayBoundMs(50, 12, 31, true) + 1).toBe(localDayBoundMs(51, 1, 1, false));
    expect(new Date(localDayBoundMs(2026, 3, 29, false)).getDate()).toBe(29);
  });
});
