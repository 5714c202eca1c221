import { type PricedResponse, UsageAccumulator, type UsageGroup } from './aggregate.js';
import { totalTokens } from './tokens.js';

/** Length of a billing block: Claude's usage limits reset 5 hours after the first request of a block. */
export const BLOCK_MS = 5 * 3_600_000;

/** A 5-hour billing block: from the hour of its first response, 5 hours long. */
export interface BillingBlock {
  readonly startMs: number;
  /** `startMs` + 5 hours. */
  readonly endMs: number;
  /** Time of its last response. */
  readonly lastMs: number;
  /** The block is still running at `now`: less than 5 hours since its last response and before its end. */
  readonly isActive: boolean;
  /** Time left in an active block (0 otherwise). */
  readonly remainingMs: number;
  readonly usage: UsageGroup;
  /** Active blocks only: cost per hour and tokens per minute so far, and the cost at this pace by the block's end. */
  readonly burnRate?: { readonly costUsdPerHour: number | null; readonly tokensPerMinute: number };
  readonly projectedCostUsd?: number | null;
}

function floorToHour(ms: number): number {
  return Math.floor(ms / 3_600_000) * 3_600_000;
}

/**
 * Groups responses into 5-hour billing blocks, as Claude Code's usage limits count them (and as ccusage shows):
 * a block starts at the (UTC) hour of its first response and lasts 5 hours; a response more than 5 hours after the
 * block's start, or after the previous response, starts a new block. Responses without a time are left out. Blocks
 * are returned oldest first.
 */
export function billingBlocks(responses: Iterable<PricedResponse<unknown>>, now: number): BillingBlock[] {
  const timed = [...responses]
    .filter((r): r is PricedResponse<unknown> & { timestampMs: number } => r.timestampMs !== undefined)
    .sort((a, b) => a.timestampMs - b.timestampMs);
  const blocks: BillingBlock[] = [];
  let start = 0;
  let last = 0;
  let acc: UsageAccumulator | undefined;
  const close = (): void => {
    if (acc === undefined) return;
    const endMs = start + BLOCK_MS;
    const isActive = now - last < BLOCK_MS && now < endMs;
    const usage = acc.result();
    const block: BillingBlock = {
      startMs: start,
      endMs,
      lastMs: last,
      isActive,
      remainingMs: isActive ? endMs - now : 0,
      usage,
    };
    if (!isActive) {
      blocks.push(block);
      return;
    }
    const elapsedMs = Math.max(now - start, 60_000);
    const costUsdPerHour = usage.costUsd === null ? null : usage.costUsd / (elapsedMs / 3_600_000);
    blocks.push({
      ...block,
      burnRate: { costUsdPerHour, tokensPerMinute: totalTokens(usage) / (elapsedMs / 60_000) },
      projectedCostUsd:
        costUsdPerHour === null ? null : (usage.costUsd ?? 0) + costUsdPerHour * (block.remainingMs / 3_600_000),
    });
  };
  for (const r of timed) {
    if (acc === undefined || r.timestampMs - start >= BLOCK_MS || r.timestampMs - last >= BLOCK_MS) {
      close();
      acc = new UsageAccumulator();
      start = floorToHour(r.timestampMs);
    }
    acc.add(r);
    last = r.timestampMs;
  }
  close();
  return blocks;
}
