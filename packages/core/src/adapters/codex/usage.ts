import { isRecord, num } from '../../internal/guards.js';
import type { Usage } from '../../model/record.js';

/** One `token_usage` object of a Codex `token_count` event, as written. */
export interface CodexTokenUsage {
  readonly input: number;
  readonly cached: number;
  readonly cacheWrite: number;
  readonly output: number;
  readonly reasoning: number;
  readonly total: number;
}

/** A `{input_tokens, cached_input_tokens, output_tokens, reasoning_output_tokens, total_tokens}` object, else undefined. */
export function tokenUsageOf(value: unknown): CodexTokenUsage | undefined {
  if (!isRecord(value)) return undefined;
  const input = num(value.input_tokens);
  const output = num(value.output_tokens);
  if (input === undefined || output === undefined) return undefined;
  return {
    input,
    cached: num(value.cached_input_tokens) ?? 0,
    cacheWrite: num(value.cache_write_input_tokens) ?? 0,
    output,
    reasoning: num(value.reasoning_output_tokens) ?? 0,
    total: num(value.total_tokens) ?? input + output,
  };
}

/** The difference of two running totals (for files whose events lack `last_token_usage`). */
export function usageDelta(now: CodexTokenUsage, before: CodexTokenUsage | undefined): CodexTokenUsage {
  if (before === undefined || now.total < before.total) return now;
  return {
    input: now.input - before.input,
    cached: now.cached - before.cached,
    cacheWrite: now.cacheWrite - before.cacheWrite,
    output: now.output - before.output,
    reasoning: now.reasoning - before.reasoning,
    total: now.total - before.total,
  };
}

/**
 * Codex usage in the shared fields: `input_tokens` includes the cached part, so uncached input and cache reads are
 * reported apart; `output_tokens` already includes reasoning, which is shown on its own and never added again.
 */
export function toUsage(usage: CodexTokenUsage): Usage {
  return {
    inputTokens: Math.max(0, usage.input - usage.cached),
    outputTokens: usage.output,
    cacheCreationInputTokens: usage.cacheWrite,
    cacheCreation1hInputTokens: 0,
    cacheReadInputTokens: usage.cached,
    reasoningOutputTokens: usage.reasoning,
  };
}

/** A running total's identity: two events with the same key repeat one response. */
export function totalKey(usage: CodexTokenUsage): string {
  return `${usage.input}/${usage.cached}/${usage.cacheWrite}/${usage.output}/${usage.reasoning}/${usage.total}`;
}
