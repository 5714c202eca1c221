/** A drill-down says what it lists, counted as its bar counts (Analytics: a bar of 62 errors opened 68 rows). */
import { describe, expect, it } from 'vitest';
import { drillCountText } from './DrillPanel';

const rows = (errors: number, expected: number) => [
  ...Array.from({ length: errors }, () => ({ severity: 'error' as const })),
  ...Array.from({ length: expected }, () => ({ severity: 'expected' as const })),
];

describe('drillCountText', () => {
  it('counts the real errors and the expected ones apart, as the bar does', () => {
    expect(drillCountText(rows(62, 6))).toBe('68 failing calls: 62 errors, 6 expected.');
    expect(drillCountText(rows(1, 0))).toBe('1 failing call: 1 error.');
  });

  it('says when the list is cut at its limit', () => {
    expect(drillCountText(rows(300, 0))).toBe('The first 300 failing calls: 300 errors.');
  });
});
