import { isRecord, num } from '../../internal/guards.js';
import type { Usage } from '../../model/record.js';

/**
 * An assistant message's `tokens` (`{input, output, reasoning, cache: {read, write}}`) → the shared usage. OpenCode
 * writes `input` without the cached part (recorded 1.18.33: `input` + `cache.read` is the prompt tokens the
 * provider served), cache writes apart, and `reasoning` apart from `output`: the shared output is their sum, the
 * reasoning shown as its part. Undefined when it holds no counts.
 */
export function usageOfOpenCodeTokens(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const input = num(value.input);
  const output = num(value.output);
  if (input === undefined && output === undefined) return undefined;
  const cache = isRecord(value.cache) ? value.cache : {};
  const reasoning = num(value.reasoning) ?? 0;
  return {
    inputTokens: input ?? 0,
    outputTokens: (output ?? 0) + reasoning,
    cacheCreationInputTokens: num(cache.write) ?? 0,
    cacheCreation1hInputTokens: 0,
    cacheReadInputTokens: num(cache.read) ?? 0,
    ...(reasoning > 0 ? { reasoningOutputTokens: reasoning } : {}),
  };
}
