/**
 * Which tools fail most: by their error rate (errors not expected, over calls, as the cards, the table and the
 * per-agent rows count them), among the tools of at least `MIN_RANKED_CALLS` calls. A tool of fewer calls is not
 * ranked: one failing call of one, 100 %, topped the chart by rate alone, and six such tools still did when they were
 * ranked by the lower bound of their 95 % Wilson interval (1 of 1 scores 21 %, above 3 of 9 at 12 %). Ranking by the
 * rate itself, among tools with calls enough to have one, keeps the bars in the order they read (longest first);
 * under 5 calls one call moves a rate by 20 points or more, so such a rate says little.
 */
import { realErrorRate, realErrors } from '../../ui/format';

export const MIN_RANKED_CALLS = 5;

interface Counted {
  readonly calls: number;
  /** Errors of every severity, expected ones included. */
  readonly errors: number;
  readonly expectedErrors: number;
}

/**
 * The tools with errors not expected and at least `MIN_RANKED_CALLS` calls, highest rate first (ties: more calls,
 * then more errors), the first `top`; and how many tools with such errors had too few calls to be ranked.
 */
export function rankByErrorRate<T extends Counted>(
  tools: readonly T[],
  top: number,
): { readonly ranked: T[]; readonly fewCalls: number } {
  const failing = tools.filter((t) => realErrors(t) > 0);
  const ranked = failing
    .filter((t) => t.calls >= MIN_RANKED_CALLS)
    .sort((a, b) => realErrorRate(b) - realErrorRate(a) || b.calls - a.calls || realErrors(b) - realErrors(a))
    .slice(0, top);
  return { ranked, fewCalls: failing.filter((t) => t.calls < MIN_RANKED_CALLS).length };
}
