import { describe, expect, it } from 'vitest';
import { outputTime, timestampMs } from './ids.js';

describe('timestampMs', () => {
  it('reads the ISO times the agents write: Z, an offset, no seconds, a space for the T, a day alone', () => {
    expect(timestampMs('2026-04-01T08:00:05.123Z')).toBe(Date.UTC(2026, 3, 1, 8, 0, 5, 123));
    expect(timestampMs('2026-04-01T10:00:00+02:00')).toBe(Date.UTC(2026, 3, 1, 8));
    expect(timestampMs('2026-04-01T10:00:00+0200')).toBe(Date.UTC(2026, 3, 1, 8));
    expect(timestampMs('2026-04-01T08:00Z')).toBe(Date.UTC(2026, 3, 1, 8));
    expect(timestampMs('2026-04-08 10:00:00Z')).toBe(Date.UTC(2026, 3, 8, 10));
    expect(timestampMs('2026-04-08')).toBe(Date.UTC(2026, 3, 8));
  });

  it("is no time for what only Date.parse's loose reading makes a date of", () => {
    // `1` and `2` were 2001-01-01 and 2001-02-01: a session of 31 days in 2001
    for (const text of ['1', '2', 'April 8, 2026 11:00 UTC', 'Mon, 06 Apr 2026 10:00:00 GMT', 'garbage', '']) {
      expect(timestampMs(text), text).toBeUndefined();
    }
    expect(outputTime(timestampMs('1'), '1')).toBe('1');
  });
});
