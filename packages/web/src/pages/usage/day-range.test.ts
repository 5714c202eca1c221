import { describe, expect, it } from 'vitest';
import { dayRange, MAX_DAYS } from './day-range';

describe('dayRange', () => {
  it('fills the days without usage between the first and the last', () => {
    expect(dayRange(['2025-12-30', '2026-01-02'])).toEqual(['2025-12-30', '2025-12-31', '2026-01-01', '2026-01-02']);
    expect(dayRange(['2026-03-28', '2026-03-30'])).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect(dayRange(['2026-02-01'])).toEqual(['2026-02-01']);
    expect(dayRange([])).toEqual([]);
  });

  it('keeps the days as they are past a span too long to draw a bar a day', () => {
    const far = ['2024-01-01', '2026-01-01'];
    expect(dayRange(far)).toEqual(far);
    expect(dayRange(['2025-01-01', '2026-02-04'])).toHaveLength(MAX_DAYS);
  });
});
