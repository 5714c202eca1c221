import { BLOCK_MS, billingBlocks } from '@agentdash/core';
import { describe, expect, it } from 'vitest';
import type { UsageFilter } from '../types.js';
import { blockChainStart } from './account-blocks.js';
import type { UsageResponse } from './usage-queries.js';

const HOUR = 3_600_000;
const t0 = Date.parse('2026-11-01T00:00:00Z');

/** An index of responses at these times (hours after t0), answering `usageResponses`'s time window as SQLite does. */
function indexOf(hours: readonly number[]) {
  const responses = hours.map(
    (h) =>
      ({
        timestampMs: t0 + h * HOUR,
        model: 'claude-sonnet-4-5',
        costUsd: 0.01,
        tokens: { inputTokens: 1, outputTokens: 1, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
        context: { agent: 'claude' },
      }) as unknown as UsageResponse,
  );
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    usageResponses(filter: UsageFilter = {}): UsageResponse[] {
      reads++;
      const since = filter.since as number | undefined;
      const until = filter.until as number | undefined;
      return responses.filter(
        (r) =>
          (since === undefined || (r.timestampMs ?? 0) >= since) &&
          (until === undefined || (r.timestampMs ?? 0) <= until),
      );
    },
  };
}

const startsOf = (responses: readonly UsageResponse[], now: number) =>
  billingBlocks(responses, now).map((b) => (b.startMs - t0) / HOUR);

describe('blockChainStart', () => {
  it('walks back day by day to the first response after a gap of 5 hours, so the blocks from there are the account’s', () => {
    // every 2 hours for three days after a quiet night, then read from the third day's noon
    const hours = [1, ...Array.from({ length: 36 }, (_, i) => 10 + 2 * i)];
    const index = indexOf(hours);
    const at = t0 + 60 * HOUR;
    const start = blockChainStart(index, {}, at);
    expect((start - t0) / HOUR).toBe(10);
    const now = t0 + 81 * HOUR;
    const fromStart = startsOf(index.usageResponses({ since: start }), now);
    expect(fromStart).toEqual(startsOf(index.usageResponses({}), now).filter((h) => h >= 10));
    // read from `at` itself the blocks would start at the wrong hours
    expect(startsOf(index.usageResponses({ since: at }), now)).not.toEqual(fromStart.filter((h) => h >= 60));
  });

  it('is the time asked for when the responses after it start a chain of their own', () => {
    // a gap of 6 hours just before: nothing earlier changes the blocks from `at` on
    expect(blockChainStart(indexOf([0, 1, 2, 9, 10]), {}, t0 + 8 * HOUR)).toBe(t0 + 8 * HOUR);
    // no response within 5 hours after it: the next one starts a chain whatever came before
    expect(blockChainStart(indexOf([0, 1, 2, 14]), {}, t0 + 3 * HOUR)).toBe(t0 + 3 * HOUR);
    // nothing at all
    expect(blockChainStart(indexOf([]), {}, t0)).toBe(t0);
  });

  it('finds a gap of exactly 5 hours, as billingBlocks starts a block there', () => {
    expect((blockChainStart(indexOf([0, 5, 7, 9]), {}, t0 + 8 * HOUR) - t0) / HOUR).toBe(5);
    expect(BLOCK_MS).toBe(5 * HOUR);
  });
});
