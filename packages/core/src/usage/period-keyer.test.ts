import { describe, expect, it, vi } from 'vitest';
import { periodKey, periodKeyer, usagePeriods } from './aggregate.js';

const MINUTE = 60_000;

/** Every minute and the last millisecond before it, over `hours` from `startIso`. */
function times(startIso: string, hours: number): number[] {
  const start = Date.parse(startIso);
  const out: number[] = [];
  for (let t = start; t < start + hours * 3_600_000; t += MINUTE) out.push(t, t + MINUTE - 1);
  return out;
}

describe('periodKeyer: one key per quarter-hour equals periodKey at every instant', () => {
  // zones whose offsets or daylight-saving changes are not whole hours, on days of a change and across midnight
  const cases: [string, string][] = [
    ['Asia/Kathmandu', '2026-11-20T12:00:00Z'], // +05:45
    ['America/St_Johns', '2026-03-07T20:00:00Z'], // -03:30, DST from 8 March
    ['America/St_Johns', '2026-10-31T20:00:00Z'], // back on 1 November
    ['Australia/Lord_Howe', '2026-04-04T06:00:00Z'], // +11 to +10:30 (a 30-minute change) on 5 April
    ['Australia/Lord_Howe', '2026-10-03T06:00:00Z'], // and back on 4 October
    ['Pacific/Chatham', '2026-04-04T06:00:00Z'], // +13:45 to +12:45
    ['Europe/Berlin', '2026-03-28T20:00:00Z'],
    ['America/New_York', '2026-11-01T00:00:00Z'],
    ['UTC', '2026-12-31T12:00:00Z'],
  ];
  for (const [zone, start] of cases) {
    it(`${zone} from ${start}`, () => {
      for (const period of usagePeriods) {
        const keyOf = periodKeyer(period, zone);
        const all = times(start, 36);
        const differing = all.filter((ms) => keyOf(ms) !== periodKey(ms, period, zone));
        expect(differing.map((ms) => new Date(ms).toISOString())).toEqual([]);
      }
    });
  }

  it('an offset off the quarter-hour grid (local mean time, before 1900) is computed per instant', () => {
    // Kolkata's local mean time: midnight falls inside a UTC quarter-hour
    const keyOf = periodKeyer('day', 'Asia/Kolkata');
    const all = times('1870-06-01T17:00:00Z', 3).concat(times('1870-06-01T17:00:30Z', 3));
    expect(new Set(all.map((ms) => periodKey(ms, 'day', 'Asia/Kolkata'))).size).toBe(2);
    expect(all.filter((ms) => keyOf(ms) !== periodKey(ms, 'day', 'Asia/Kolkata'))).toEqual([]);
  });

  it('the process time zone when none is given', () => {
    const keyOf = periodKeyer('day');
    const all = times('2026-11-20T00:00:00Z', 26);
    expect(all.filter((ms) => keyOf(ms) !== periodKey(ms, 'day'))).toEqual([]);
  });
});

describe('periodKeyer over many times', () => {
  it('keys a year of quarter-hours in order with a few formats a day, not two a quarter-hour', () => {
    const formats = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    try {
      const keyOf = periodKeyer('day', 'America/Los_Angeles');
      const start = Date.parse('2026-01-01T00:00:00Z');
      const days = new Set<string>();
      for (let q = 0; q < 366 * 96; q++) days.add(keyOf(start + q * 900_000));
      expect(days.size).toBe(367);
      // Before: two per quarter-hour, 70,272.
      expect(formats.mock.calls.length).toBeLessThan(366 * 16);
    } finally {
      formats.mockRestore();
    }
  });

  it('gives periodKey at every instant in any order', () => {
    const zone = 'Australia/Lord_Howe';
    const all = times('2026-04-03T06:00:00Z', 60).concat(times('2026-10-02T06:00:00Z', 60));
    // A fixed shuffle (a linear congruential sequence): runs are met out of order.
    let seed = 7;
    for (let i = all.length - 1; i > 0; i--) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      const j = seed % (i + 1);
      [all[i], all[j]] = [all[j] as number, all[i] as number];
    }
    for (const period of usagePeriods) {
      const keyOf = periodKeyer(period, zone);
      expect(all.filter((ms) => keyOf(ms) !== periodKey(ms, period, zone))).toEqual([]);
    }
  });
});
