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
  /** The block is running at `now`: started, less than 5 hours since its last response, and before its end. */
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

type Timed = PricedResponse<unknown> & { timestampMs: number };
const timedOf = (responses: Iterable<PricedResponse<unknown>>): Timed[] =>
  [...responses].filter((r): r is Timed => r.timestampMs !== undefined).sort((a, b) => a.timestampMs - b.timestampMs);

/**
 * Groups responses into 5-hour billing blocks, as Claude Code's usage limits count them (and as ccusage shows):
 * a block starts at the (UTC) hour of its first response and lasts 5 hours; a response more than 5 hours after the
 * block's start, or after the previous response, starts a new block. Responses without a time are left out. Blocks
 * are returned oldest first.
 *
 * The blocks are the account's: made of all its responses. `counted`, some of them (a project's, a model's), is what
 * each block's usage, burn rate and projection count; a block with none of them is left out. Without it, all count.
 */
export function billingBlocks(
  responses: Iterable<PricedResponse<unknown>>,
  now: number,
  counted?: Iterable<PricedResponse<unknown>>,
): BillingBlock[] {
  const timed = timedOf(responses);
  const spans: { start: number; last: number }[] = [];
  for (const r of timed) {
    const span = spans.at(-1);
    if (span === undefined || r.timestampMs - span.start >= BLOCK_MS || r.timestampMs - span.last >= BLOCK_MS) {
      spans.push({ start: floorToHour(r.timestampMs), last: r.timestampMs });
    } else span.last = r.timestampMs;
  }
  const accs = spans.map(() => new UsageAccumulator());
  let at = 0;
  for (const r of counted === undefined ? timed : timedOf(counted)) {
    // counted responses come in time order, as the spans do: each in the span it falls in (none: not one of them)
    while (at < spans.length - 1 && r.timestampMs > (spans[at]?.last ?? 0)) at++;
    const span = spans[at];
    if (span !== undefined && r.timestampMs >= span.start && r.timestampMs <= span.last) accs[at]?.add(r);
  }
  return spans.flatMap((span, i) => {
    const usage = accs[i]?.result();
    return usage === undefined || usage.responses === 0 ? [] : [blockOf(span.start, span.last, usage, now)];
  });
}

function blockOf(start: number, last: number, usage: UsageGroup, now: number): BillingBlock {
  const endMs = start + BLOCK_MS;
  // a block dated after now (a clock ahead, a responses' time zone written wrong) has not started: not active
  const isActive = start <= now && now - last < BLOCK_MS && now < endMs;
  const block: BillingBlock = {
    startMs: start,
    endMs,
    lastMs: last,
    isActive,
    remainingMs: isActive ? endMs - now : 0,
    usage,
  };
  if (!isActive) return block;
  const elapsedMs = Math.max(now - start, 60_000);
  const costUsdPerHour = usage.costUsd === null ? null : usage.costUsd / (elapsedMs / 3_600_000);
  return {
    ...block,
    burnRate: { costUsdPerHour, tokensPerMinute: totalTokens(usage) / (elapsedMs / 60_000) },
    projectedCostUsd:
      costUsdPerHour === null ? null : (usage.costUsd ?? 0) + costUsdPerHour * (block.remainingMs / 3_600_000),
  };
}

/**
 * The blocks that overlap a report's time range (`since`, `until`: epoch ms, either open), whole: a block's usage
 * limit is the block's, not the range's. A block spans its responses, and the running one runs on until now (so
 * `--since 30m` shows it after half an hour without a response).
 */
export function blocksOverlapping(
  blocks: readonly BillingBlock[],
  since: number | undefined,
  until: number | undefined,
): BillingBlock[] {
  return blocks.filter(
    (b) =>
      (since === undefined || b.lastMs >= since || (b.isActive && b.endMs > since)) &&
      (until === undefined || b.startMs <= until),
  );
}
