import { type BillingBlock, BLOCK_MS, billingBlocks, blocksOverlapping } from '@agentdash/core';
import { type AgentId, agentInfo, blockAgents } from '@agentdash/core/base';
import type { AgentIndex } from '../agent-index.js';
import type { UsageFilter } from '../types.js';
import type { UsageResponse } from './usage-queries.js';

const blockLabels = () => blockAgents.map((id) => agentInfo(id).label).join(' and ');

/** A filter's agent whose usage limits are no 5-hour billing blocks (`AgentInfo.billingBlocks`). */
export class NoBlocksError extends Error {
  constructor(readonly agent: AgentId) {
    super(`5-hour billing blocks are ${blockLabels()}'s usage limits; ${agentInfo(agent).label} has none`);
  }
}

/**
 * The 5-hour blocks of `usage blocks`: an agent's usage limits, one account's, so made of all its responses in the
 * paths, whatever the report's filter; a project's or a model's responses are what each block counts, and the time
 * range picks the blocks it overlaps, whole (as the status line shows the running one). `counted`: the responses of
 * the blocks, as they count them. Each agent with blocks (`blockAgents`) has its own, in time order.
 */
export function accountBlocks(
  index: Pick<AgentIndex, 'usageResponses'>,
  filter: UsageFilter,
  now: number,
): { blocks: BillingBlock[]; counted: UsageResponse[] } {
  if (filter.agent !== undefined && !blockAgents.includes(filter.agent)) throw new NoBlocksError(filter.agent);
  const { since, until, ...rest } = filter;
  const ms = (t: typeof since) => (t === undefined ? undefined : new Date(t).getTime());
  // what counts is the account's every response unless the report names a project, a model or a session
  const narrowed = rest.project !== undefined || rest.model !== undefined || rest.sessionId !== undefined;
  const blocks: BillingBlock[] = [];
  const counted: UsageResponse[] = [];
  for (const agent of filter.agent === undefined ? blockAgents : [filter.agent]) {
    const account = index.usageResponses({ agent, ...(filter.paths ? { paths: filter.paths } : {}) });
    const mine = narrowed ? index.usageResponses({ ...rest, agent }) : account;
    const own = blocksOverlapping(billingBlocks(account, now, mine), ms(since), ms(until));
    blocks.push(...own);
    counted.push(...mine.filter((r) => inBlocks(own, r.timestampMs)));
  }
  return { blocks: blocks.sort((a, b) => a.startMs - b.startMs), counted };
}

/** Whether a time falls in one of the blocks (in time order): the last one starting at or before it. */
function inBlocks(blocks: readonly BillingBlock[], t: number | undefined): boolean {
  if (t === undefined) return false;
  let lo = 0;
  let hi = blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((blocks[mid]?.startMs ?? 0) <= t) lo = mid + 1;
    else hi = mid;
  }
  const b = blocks[lo - 1];
  return b !== undefined && t <= b.lastMs;
}

/** How far back each step of `blockChainStart` looks. */
const STEP_MS = 24 * 3_600_000;

/**
 * Where the account's chain of blocks that runs at `at` starts: the time of the first response after the last gap of
 * 5 hours or more before `at` (`at` itself when no response precedes it by less). A block starts at the hour of the
 * first response after such a gap, and the next ones 5 hours on, so the blocks of the responses from there are the
 * account's (`billingBlocks` of responses from any later time would start its chain there, in the wrong hour). Looks
 * back a day at a time: a status line reads the day it needs, not the account's history.
 */
export function blockChainStart(
  index: Pick<AgentIndex, 'usageResponses'>,
  filter: Pick<UsageFilter, 'paths'>,
  at: number,
): number {
  let start = at;
  const paths = filter.paths ? { paths: filter.paths } : {};
  for (const agent of blockAgents) {
    const times = (since: number, until: number) =>
      index
        .usageResponses({ agent, ...paths, since, until })
        .map((r) => r.timestampMs)
        .filter((t): t is number => t !== undefined)
        .sort((a, b) => b - a);
    // the earliest response known at or after `from`; with none in the 5 hours after `at`, whatever came before, the
    // responses from `at` on start a chain of their own
    let first = times(at, at + BLOCK_MS).at(-1);
    let from = at;
    while (first !== undefined) {
      const earlier = times(from - STEP_MS, from - 1);
      // a day without a response before it: the chain starts at `first`
      let chain = earlier.length === 0 ? first : undefined;
      let next = first;
      for (const t of earlier) {
        if (chain !== undefined) break;
        if (next - t >= BLOCK_MS) chain = next;
        next = t;
      }
      if (chain !== undefined) {
        start = Math.min(start, chain);
        break;
      }
      first = earlier.at(-1);
      from -= STEP_MS;
    }
  }
  return start;
}
