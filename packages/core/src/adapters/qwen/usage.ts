import { isRecord, num } from '../../internal/guards.js';
import type { Usage } from '../../model/record.js';
import { usageFromGeminiTokens } from '../gemini/usage.js';

/**
 * An assistant line's `usageMetadata` (Gemini's response field names: `promptTokenCount` including
 * `cachedContentTokenCount`, `candidatesTokenCount`, `thoughtsTokenCount`, `toolUsePromptTokenCount`) → the shared
 * usage, by the Gemini adapter's rule. Undefined when it holds no counts.
 */
export function usageOfQwenMetadata(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const input = num(value.promptTokenCount);
  const output = num(value.candidatesTokenCount);
  if (input === undefined && output === undefined) return undefined;
  return usageFromGeminiTokens({
    input: input ?? 0,
    output: output ?? 0,
    cached: num(value.cachedContentTokenCount) ?? 0,
    thoughts: num(value.thoughtsTokenCount) ?? 0,
    tool: num(value.toolUsePromptTokenCount) ?? 0,
    total: num(value.totalTokenCount),
  });
}
