import { describe, expect, it } from 'vitest';
import { fmtCostCell, fmtDate, knownTimeIso } from './format';

describe('knownTimeIso (a time that may be unknown)', () => {
  it('is the ISO text of a time', () => {
    expect(knownTimeIso(Date.UTC(2026, 10, 28, 22, 41, 23, 767))).toBe('2026-11-28T22:41:23.767Z');
  });

  it('is undefined for an absent, unset (0, the epoch) or broken time, which the dates then show as "—"', () => {
    expect([null, undefined, 0, -1, Number.NaN, Number.POSITIVE_INFINITY].map(knownTimeIso)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(fmtDate(knownTimeIso(0))).toBe('—');
  });
});

describe('fmtCostCell', () => {
  it("keeps a cost's `+ ?` together, breakable before it only (a phone's narrow Cost column)", () => {
    const gaps = { unpricedModels: ['x-model'] };
    expect(fmtCostCell(162.84, gaps)).toBe('$162.84 +\u00a0?');
    expect(fmtCostCell(162.84)).toBe('$162.84');
    expect(fmtCostCell(null)).toBe('unknown');
  });
});
