import type { UsageTotals } from '../model/session.js';

/** Token counts of API responses: the four billed kinds, cache writes split by lifetime where the record says. */
export interface TokenCounts {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** All cache writes (5-minute and 1-hour). */
  readonly cacheCreationInputTokens: number;
  /** The part of `cacheCreationInputTokens` written with a 1-hour lifetime (`usage.cache_creation`); 0 when unsplit. */
  readonly cacheCreation1hInputTokens: number;
  readonly cacheReadInputTokens: number;
  /** The part of `outputTokens` spent on reasoning (Codex reasoning, Gemini thoughts); 0 when not reported apart. */
  readonly reasoningOutputTokens: number;
}

export const zeroTokens: TokenCounts = {
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheCreation1hInputTokens: 0,
  cacheReadInputTokens: 0,
  reasoningOutputTokens: 0,
};

export function addTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
    cacheCreation1hInputTokens: a.cacheCreation1hInputTokens + b.cacheCreation1hInputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
    reasoningOutputTokens: a.reasoningOutputTokens + b.reasoningOutputTokens,
  };
}

/** The largest value of each field (block records of one response carry earlier and later copies). */
export function maxTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  return {
    inputTokens: Math.max(a.inputTokens, b.inputTokens),
    outputTokens: Math.max(a.outputTokens, b.outputTokens),
    cacheCreationInputTokens: Math.max(a.cacheCreationInputTokens, b.cacheCreationInputTokens),
    cacheCreation1hInputTokens: Math.max(a.cacheCreation1hInputTokens, b.cacheCreation1hInputTokens),
    cacheReadInputTokens: Math.max(a.cacheReadInputTokens, b.cacheReadInputTokens),
    reasoningOutputTokens: Math.max(a.reasoningOutputTokens, b.reasoningOutputTokens),
  };
}

/** Every input-side token of a response: fresh input, cache writes and cache reads. */
export function promptTokens(t: TokenCounts): number {
  return t.inputTokens + t.cacheCreationInputTokens + t.cacheReadInputTokens;
}

export function totalTokens(t: TokenCounts): number {
  return promptTokens(t) + t.outputTokens;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * Token counts from a raw `message.usage` object; `undefined` when it is not an object. The 1-hour part of the cache
 * writes comes from `cache_creation.ephemeral_1h_input_tokens` (absent before the client split them: all 5-minute).
 */
export function tokensFromRawUsage(raw: unknown): TokenCounts | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const u = raw as Record<string, unknown>;
  const split = typeof u.cache_creation === 'object' && u.cache_creation !== null ? u.cache_creation : undefined;
  const oneHour = split ? count((split as Record<string, unknown>).ephemeral_1h_input_tokens) : 0;
  const creation = count(u.cache_creation_input_tokens);
  return {
    inputTokens: count(u.input_tokens),
    outputTokens: count(u.output_tokens),
    cacheCreationInputTokens: creation,
    cacheCreation1hInputTokens: Math.min(oneHour, creation),
    cacheReadInputTokens: count(u.cache_read_input_tokens),
    reasoningOutputTokens: 0,
  };
}

/**
 * A usage's totals as a session header and the usage reports give them: the response count and the token kinds,
 * in this order, and nothing else (the figures an API or `--json` consumer reads; cost is added apart).
 */
export function usageTotalsOf(u: UsageTotals): UsageTotals {
  return {
    responses: u.responses,
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    cacheCreationInputTokens: u.cacheCreationInputTokens,
    cacheReadInputTokens: u.cacheReadInputTokens,
    reasoningOutputTokens: u.reasoningOutputTokens,
  };
}
