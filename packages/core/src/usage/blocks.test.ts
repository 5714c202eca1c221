import { describe, expect, it } from 'vitest';
import { BLOCK_MS, billingBlocks, blocksOverlapping } from './blocks.js';
import { zeroTokens } from './tokens.js';

/** A priced response at `iso` with `output` tokens (as many millionths of a dollar), of `context`. */
const at = (iso: string, output = 1, context?: string) => ({
  key: iso,
  messageId: iso,
  requestId: undefined,
  model: 'claude-haiku-4-5',
  timestampMs: Date.parse(iso),
  tokens: { ...zeroTokens, outputTokens: output },
  records: 1,
  context,
  costUsd: output / 1e6,
});

describe('billingBlocks', () => {
  it('starts a 5-hour block at the hour of its first response; a gap or the 5 hours start the next', () => {
    const responses = [
      at('2026-11-23T08:20:00Z', 1),
      at('2026-11-23T12:59:00Z', 2), // within 5 h of 08:00
      at('2026-11-23T13:05:00Z', 4), // past 13:00: a new block from 13:00
      at('2026-11-23T20:00:00Z', 8), // more than 5 h after the previous response
    ];
    const now = Date.parse('2026-11-23T21:00:00Z');
    const blocks = billingBlocks(responses, now);
    expect(blocks.map((b) => [new Date(b.startMs).toISOString(), b.usage.outputTokens, b.isActive])).toEqual([
      ['2026-11-23T08:00:00.000Z', 3, false],
      ['2026-11-23T13:00:00.000Z', 4, false],
      ['2026-11-23T20:00:00.000Z', 8, true],
    ]);
    const active = blocks[2];
    expect(active?.endMs).toBe(Date.parse('2026-11-23T20:00:00Z') + BLOCK_MS);
    expect(active?.remainingMs).toBe(4 * 3_600_000);
    expect(active?.burnRate?.costUsdPerHour).toBeCloseTo(8 / 1e6, 12);
    expect(active?.projectedCostUsd).toBeCloseTo(8 / 1e6 + (8 / 1e6) * 4, 12);
  });
});

describe('billingBlocks dated after now', () => {
  it('are not active: a clock ahead made blocks 600 h from their end, projected at 40,000 times their cost', () => {
    // a review helper: two blocks active at once, 611.7 h and 683.7 h left, $1231.30 projected from $0.03
    const responses = [at('2026-12-01T10:00:00Z', 1), at('2026-12-01T10:30:00Z', 2), at('2026-12-31T09:00:00Z', 4)];
    const now = Date.parse('2026-11-30T12:00:00Z');
    const blocks = billingBlocks(responses, now);
    expect(blocks.map((b) => [b.isActive, b.remainingMs, b.projectedCostUsd])).toEqual([
      [false, 0, undefined],
      [false, 0, undefined],
    ]);
  });
});

describe('billingBlocks over some of the responses', () => {
  it('counts part of the responses in the blocks all of them make (a project’s share of the account’s blocks)', () => {
    const responses = [
      at('2026-11-23T08:20:00Z', 1, 'a'),
      at('2026-11-23T12:59:00Z', 2, 'b'), // within 5 h of 08:00: b's block starts at 08:00, not 12:00
      at('2026-11-23T13:05:00Z', 4, 'a'),
      at('2026-11-23T20:00:00Z', 8, 'a'),
      at('2026-11-23T20:30:00Z', 16, 'b'),
    ];
    const now = Date.parse('2026-11-23T21:00:00Z');
    const b = billingBlocks(
      responses,
      now,
      responses.filter((r) => r.context === 'b'),
    );
    // Before: a filtered report's blocks were made of its own responses (12:00, cut from the 08:00 block).
    expect(b.map((x) => [new Date(x.startMs).toISOString(), x.usage.outputTokens, x.isActive, x.remainingMs])).toEqual([
      ['2026-11-23T08:00:00.000Z', 2, false, 0],
      ['2026-11-23T20:00:00.000Z', 16, true, 4 * 3_600_000],
    ]);
  });

  it('are listed, whole, when they overlap a time range', () => {
    const blocks = billingBlocks(
      [at('2026-11-23T08:20:00Z'), at('2026-11-23T12:10:00Z'), at('2026-11-23T20:00:00Z')],
      0,
    );
    const starts = (since?: string, until?: string) =>
      blocksOverlapping(
        blocks,
        since === undefined ? undefined : Date.parse(since),
        until === undefined ? undefined : Date.parse(until),
      ).map((b) => [new Date(b.startMs).toISOString(), b.usage.responses]);
    expect(starts('2026-11-23T10:00:00Z', '2026-11-23T19:00:00Z')).toEqual([['2026-11-23T08:00:00.000Z', 2]]);
    expect(starts('2026-11-23T12:11:00Z')).toEqual([['2026-11-23T20:00:00.000Z', 1]]);
    expect(starts(undefined, '2026-11-23T07:00:00Z')).toEqual([]);
  });

  it('list the running block for a range from after its last response (it runs until now)', () => {
    const now = Date.parse('2026-11-23T22:00:00Z');
    const blocks = billingBlocks([at('2026-11-23T12:10:00Z'), at('2026-11-23T20:10:00Z')], now);
    const since = (iso: string) => blocksOverlapping(blocks, Date.parse(iso), undefined).map((b) => b.isActive);
    expect(since('2026-11-23T21:30:00Z')).toEqual([true]);
    // an ended block is not: its last response is before the range
    expect(since('2026-11-23T13:00:00Z')).toEqual([true]);
    expect(since('2026-11-23T12:00:00Z')).toEqual([false, true]);
  });
});
