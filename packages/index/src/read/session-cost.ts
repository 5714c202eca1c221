/** A session's usage and cost from its stored usage parts (per model, thread and tier). */
import {
  addTokens,
  bandRates,
  findPrice,
  knownCost,
  type PriceTable,
  roundUsd,
  tokensCost,
} from '@agentdash/core/usage';
import type { UsagePart, UsageSummary } from '../types.js';

export const emptyUsageSummary: UsageSummary = {
  responses: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheCreation1hInputTokens: 0,
  cacheReadInputTokens: 0,
  reasoningOutputTokens: 0,
};

export function addUsage(a: UsageSummary, b: UsageSummary): UsageSummary {
  return { responses: a.responses + b.responses, ...addTokens(a, b) };
}

function summary(u: UsageSummary): UsageSummary {
  return {
    responses: u.responses,
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    cacheCreationInputTokens: u.cacheCreationInputTokens,
    cacheCreation1hInputTokens: u.cacheCreation1hInputTokens,
    cacheReadInputTokens: u.cacheReadInputTokens,
    // Usage detail written before migration 10 has no reasoning field.
    reasoningOutputTokens: u.reasoningOutputTokens ?? 0,
  };
}

export interface SessionUsage {
  readonly usage: UsageSummary;
  readonly usageByModel: Record<string, UsageSummary>;
  readonly subagentUsage: UsageSummary;
  readonly costUsd: number | null;
  readonly subagentCostUsd: number | null;
  readonly unpricedModels: string[];
  /** Models some of whose responses recorded no input: the cost is a lower bound. Absent when none. */
  readonly inputUnrecordedModels?: string[];
  /** Models some of whose responses kept only the stream's first output count: output and cost are lower bounds. */
  readonly outputUnrecordedModels?: string[];
}

/**
 * Whether a named model answered the session, from its stored `sessions.models` JSON (`[]` when none is named) and its
 * responses (`sessions.messages - sessions.prompts`). Its models alone name the model a session asked for too
 * (Codex's `turn_context`, a `/model` setting): a session whose only request failed, or that only chose a model,
 * billed nothing; so did one whose responses name no model (as `usage` counts them).
 */
export function answered(models: unknown, responses: unknown): boolean {
  return typeof models === 'string' && models !== '[]' && typeof responses === 'number' && responses > 0;
}

/**
 * Totals, per model and for subagents, priced: each band's parts at the rates of the model's tier for that band.
 * `reached`: whether a model answered the session (`answered`): one that did but recorded no usage costs unknown.
 */
export function sessionUsage(parts: readonly UsagePart[], prices: PriceTable, reached: boolean): SessionUsage {
  let usage = emptyUsageSummary;
  let subagentUsage = emptyUsageSummary;
  const usageByModel: Record<string, UsageSummary> = {};
  let cost = 0;
  const priced = new Set<string>();
  let subagentCost: number | null = null;
  const unpriced = new Set<string>();
  const unrecorded = new Set<string>();
  const cut = new Set<string>();
  for (const part of parts) {
    // A part of no response (a session all of whose responses are others'): its model's price says whether the
    // nothing it billed is known ($0) or not; it adds no usage.
    if (part.responses === 0) {
      if (findPrice(prices, part.model) === undefined) unpriced.add(part.model);
      else priced.add(part.model);
      continue;
    }
    if ((part.inputUnrecorded ?? 0) > 0) unrecorded.add(part.model);
    if ((part.outputUnrecorded ?? 0) > 0) cut.add(part.model);
    usage = addUsage(usage, part);
    usageByModel[part.model] = addUsage(usageByModel[part.model] ?? emptyUsageSummary, summary(part));
    if (part.thread === 'subagent') subagentUsage = addUsage(subagentUsage, part);
    const price = findPrice(prices, part.model);
    if (price === undefined) {
      unpriced.add(part.model);
      continue;
    }
    const partCost = tokensCost(bandRates(price, part.band), part);
    cost += partCost;
    priced.add(part.model);
    if (part.thread === 'subagent') subagentCost = (subagentCost ?? 0) + partCost;
  }
  // A session no model answered billed nothing: it cost nothing (not unknown: no model lacks a price), as a usage
  // group of no response. One whose responses recorded no usage (Aider's, a client that writes no tokens) is unknown.
  const costUsd =
    parts.length === 0 && reached ? null : knownCost(cost, { priced: priced.size, unpriced: unpriced.size });
  if (subagentCost === null && costUsd !== null && subagentUsage.responses === 0) subagentCost = 0;
  return {
    usage: summary(usage),
    usageByModel,
    subagentUsage: summary(subagentUsage),
    costUsd,
    subagentCostUsd: subagentCost === null ? null : roundUsd(subagentCost),
    unpricedModels: [...unpriced].sort(),
    ...(unrecorded.size > 0 ? { inputUnrecordedModels: [...unrecorded].sort() } : {}),
    ...(cut.size > 0 ? { outputUnrecordedModels: [...cut].sort() } : {}),
  };
}

/**
 * A session's cost from its stored `usage_detail` and `models` JSON and its count of responses, as the SQL function
 * `session_cost` (the sessions list sorts by it): null when its parts are all of models without a price, when a named
 * model answered but recorded no usage, or the detail is not readable. Costs are memoized per detail text, since a
 * list sorted by cost prices every session it selects.
 */
export function createSessionCostFunction(
  prices: PriceTable,
): (detail: unknown, models: unknown, responses: unknown) => number | null {
  const memo = new Map<string, number | null>();
  return (detail, models, responses) => {
    if (typeof detail !== 'string') return null;
    const reached = answered(models, responses);
    const key = `${reached ? 1 : 0}${detail}`;
    const hit = memo.get(key);
    if (hit !== undefined || memo.has(key)) return hit ?? null;
    let cost: number | null = null;
    try {
      cost = sessionUsage(JSON.parse(detail) as UsagePart[], prices, reached).costUsd;
    } catch {
      cost = null;
    }
    if (memo.size > 100_000) memo.clear();
    memo.set(key, cost);
    return cost;
  };
}
