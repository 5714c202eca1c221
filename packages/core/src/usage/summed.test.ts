/** Responses summed into one (a team server's usage per quarter-hour and band): counted and priced as the parts. */
import { describe, expect, it } from 'vitest';
import { bandPricer, type PricedResponse, totalsOf } from './aggregate.js';
import { billingBlocks } from './blocks.js';
import { defaultPriceTable } from './price-table.js';
import { PROMPT_BOUNDARIES, promptBand, responseCost } from './pricing.js';
import { addTokens, promptTokens, type TokenCounts, zeroTokens } from './tokens.js';

const tokens = (prompt: number, output: number): TokenCounts => ({
  ...zeroTokens,
  inputTokens: prompt - 1_000 - Math.floor(prompt / 2),
  cacheCreationInputTokens: 1_000,
  cacheCreation1hInputTokens: 400,
  cacheReadInputTokens: Math.floor(prompt / 2),
  outputTokens: output,
});

describe('summed responses', () => {
  it('count the responses they stand for, in totals and blocks', () => {
    const one = (ms: number, responses?: number): PricedResponse => ({
      key: String(ms),
      messageId: undefined,
      requestId: undefined,
      model: 'm',
      timestampMs: ms,
      tokens: tokens(5_000, 10),
      records: 1,
      context: undefined,
      costUsd: 1,
      ...(responses === undefined ? {} : { responses }),
    });
    const rows = [one(0), one(60_000, 4), one(120_000, 2)];
    expect(totalsOf(rows).responses).toBe(7);
    expect(totalsOf(rows).models.m?.responses).toBe(7);
    expect(billingBlocks(rows, 10 * 3_600_000)[0]?.usage.responses).toBe(7);
  });

  it("are priced, within one band, as the sum of their responses' costs, for every tiered built-in price", () => {
    const priceOf = bandPricer(defaultPriceTable);
    const tiered = Object.entries(defaultPriceTable.models).filter(([, p]) => (p.tiers ?? []).length > 0);
    expect(tiered.length).toBeGreaterThan(0);
    for (const [model, price] of tiered) {
      for (const [band, low] of [0, ...PROMPT_BOUNDARIES].entries()) {
        const high = PROMPT_BOUNDARIES[band] ?? low + 100_000;
        const parts = [
          tokens(low + 1 + (band === 0 ? 2_000 : 0), 100),
          tokens(high, 2_000),
          tokens((low + high) >> 1, 7),
        ];
        for (const t of parts) expect(promptBand(promptTokens(t))).toBe(band);
        const each = parts.reduce((sum, t) => sum + responseCost(price, t), 0);
        const summed = priceOf(model, band, parts.reduce(addTokens, zeroTokens));
        expect(summed, `${model}, band ${band}`).toBeCloseTo(each, 12);
      }
    }
  });
});
