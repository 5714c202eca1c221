import { expect } from 'vitest';

/**
 * Costs as both servers compute them: the team server prices responses summed per quarter-hour and band, the laptop
 * prices each response, so a cost may differ in its last bits (sums of floating-point products in another order).
 * Every other figure is compared exactly.
 */
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));

/** `theirs` with each cost (a number under a key naming a cost) that is within rounding of `mine`'s replaced by it. */
export function withCostsOf<T>(mine: unknown, theirs: T): T {
  const walk = (a: unknown, b: unknown, key: string): unknown => {
    if (typeof a === 'number' && typeof b === 'number') return /cost/i.test(key) && close(a, b) ? a : b;
    if (Array.isArray(a) && Array.isArray(b)) return b.map((v, i) => walk(a[i], v, key));
    if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
      const ao = a as Record<string, unknown>;
      return Object.fromEntries(Object.entries(b).map(([k, v]) => [k, walk(ao[k], v, k)]));
    }
    return b;
  };
  return walk(mine, theirs, '') as T;
}

/** The parts of `GET /api/usage` a laptop's server and a team server give alike, figure for figure. */
const USAGE_PARTS = ['totals', 'days', 'models', 'agents', 'projects', 'blocks'] as const;

/**
 * The team's usage (`theirs`) equals the laptop's (`mine`) in every part both give, costs within rounding; returns
 * `theirs` with those costs made the laptop's.
 */
export function expectSameUsage<T extends Partial<Record<(typeof USAGE_PARTS)[number], unknown>>>(
  mine: T,
  theirs: T,
): T {
  const close = withCostsOf(mine, theirs);
  for (const part of USAGE_PARTS) expect({ [part]: close[part] }).toEqual({ [part]: mine[part] });
  return close;
}
