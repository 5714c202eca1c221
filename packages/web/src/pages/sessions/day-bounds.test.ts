import { describe, expect, it } from 'vitest';
import { datesSwapped, localDayInstant } from './day-bounds';

describe('localDayInstant', () => {
  it("gives a day's first and last millisecond in the browser's zone; anything else as it is", () => {
    expect(localDayInstant('2026-01-31', false)).toBe(new Date(2026, 0, 31).toISOString());
    expect(localDayInstant('2026-01-31', true)).toBe(new Date(new Date(2026, 1, 1).getTime() - 1).toISOString());
    expect(localDayInstant('2026-12-31', true)).toBe(new Date(new Date(2027, 0, 1).getTime() - 1).toISOString());
    expect(localDayInstant('', true)).toBe('');
    expect(localDayInstant('2026-01-31T10:00:00Z', true)).toBe('2026-01-31T10:00:00Z');
  });

  it('in a zone far from UTC, the local day (UTC+14: from 10:00 UTC the day before)', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'Pacific/Kiritimati';
    try {
      expect(localDayInstant('2026-01-31', false)).toBe('2026-01-30T10:00:00.000Z');
      expect(localDayInstant('2026-01-31', true)).toBe('2026-01-31T09:59:59.999Z');
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });
});

describe('datesSwapped', () => {
  it('is true only when both dates are given and "from" is after "to"', () => {
    expect(datesSwapped('2026-03-05', '2026-03-04')).toBe(true);
    // one day: from its first millisecond through its last
    expect(datesSwapped('2026-03-04', '2026-03-04')).toBe(false);
    expect(datesSwapped('2026-03-04', '2026-03-05')).toBe(false);
    expect(datesSwapped('', '2026-03-04')).toBe(false);
    expect(datesSwapped('2026-03-05', '')).toBe(false);
    expect(datesSwapped('2026-03-05T10:00:00Z', '2026-03-05T09:00:00Z')).toBe(true);
  });
});
