import { isRecord, num } from '../../internal/guards.js';
import type { Usage } from '../../model/record.js';

/** Gemini's per-message `tokens` as written: `{input, output, cached, thoughts, tool, total}`. */
export interface GeminiTokens {
  readonly input: number;
  readonly output: number;
  readonly cached: number;
  readonly thoughts: number;
  readonly tool: number;
  readonly total: number | undefined;
}

/** The `tokens` object of a message, or undefined when absent or holding no counts. */
export function geminiTokensOf(value: unknown): GeminiTokens | undefined {
  if (!isRecord(value)) return undefined;
  const input = num(value.input);
  const output = num(value.output);
  if (input === undefined && output === undefined) return undefined;
  return {
    input: input ?? 0,
    output: output ?? 0,
    cached: num(value.cached) ?? 0,
    thoughts: num(value.thoughts) ?? 0,
    tool: num(value.tool) ?? 0,
    total: num(value.total),
  };
}

/**
 * Gemini tokens → the shared usage fields. Gemini's `input` (promptTokenCount) already includes `cached`
 * (cachedContentTokenCount), so the uncached input is `input − cached`; tool-use prompt tokens are input too.
 * `thoughts` (thoughtsTokenCount) are billed as output on top of `output` (candidatesTokenCount), so
 * `outputTokens = output + thoughts`; the thoughts are also shown on their own (`reasoningOutputTokens`).
 * Gemini has no cache writes.
 */
export function usageFromGeminiTokens(tokens: GeminiTokens): Usage {
  return {
    inputTokens: Math.max(0, tokens.input - tokens.cached) + tokens.tool,
    outputTokens: tokens.output + tokens.thoughts,
    cacheCreationInputTokens: 0,
    cacheCreation1hInputTokens: 0,
    cacheReadInputTokens: tokens.cached,
    reasoningOutputTokens: tokens.thoughts,
  };
}
