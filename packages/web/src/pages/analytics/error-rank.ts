/**
 * Which tools fail most, ranked by how sure the calls make that rate, not by the rate alone (where one failing call of
 * one, 100 %, tops the chart): by the lower bound of the 95 % Wilson score interval of each tool's error rate, the
 * rate the tool fails at least, as far as its calls tell. One failing call of one ranks at 21 %; 30 of 100 (30 %) at
 * 22 %; 300 of 1,000 (30 %) at 27 %. The chart shows the rate itself beside its calls.
 */

const Z = 1.96;

/** The lower bound of the 95 % Wilson score interval of `errors` failures in `calls` calls (0 without calls). */
export function errorRateLowerBound(errors: number, calls: number): number {
  if (!(calls > 0)) return 0;
  const p = Math.min(1, Math.max(0, errors / calls));
  const z2 = Z * Z;
  const centre = p + z2 / (2 * calls);
  const spread = Z * Math.sqrt((p * (1 - p) + z2 / (4 * calls)) / calls);
  return Math.max(0, (centre - spread) / (1 + z2 / calls));
}

/** The tools with errors, most failing first by `errorRateLowerBound`, then by errors; the first `top`. */
export function rankByErrorRate<T extends { readonly errors: number; readonly calls: number }>(
  tools: readonly T[],
  top: number,
): T[] {
  return tools
    .filter((t) => t.errors > 0)
    .map((t) => ({ t, bound: errorRateLowerBound(t.errors, t.calls) }))
    .sort((a, b) => b.bound - a.bound || b.t.errors - a.t.errors)
    .slice(0, top)
    .map(({ t }) => t);
}
