import { num } from '../../internal/guards.js';
import type { Usage } from '../../model/record.js';

/**
 * One response's usage as Copilot CLI records it (`session.usage_record.data.usage`, 1.0.102; 1.0.64 writes only
 * `outputTokens` on the message). `inputTokens` includes the cached part (it equals the provider's prompt tokens),
 * so the shared input is input − cache reads; cache writes are their own field; reasoning tokens, when recorded, are
 * part of `outputTokens` and shown apart.
 */
export function usageOfRecord(usage: Readonly<Record<string, unknown>>): Usage {
  const input = num(usage.inputTokens) ?? 0;
  const cacheRead = num(usage.cacheReadTokens) ?? 0;
  const reasoning = num(usage.reasoningTokens);
  return {
    inputTokens: Math.max(0, input - cacheRead),
    outputTokens: num(usage.outputTokens) ?? 0,
    cacheCreationInputTokens: num(usage.cacheWriteTokens) ?? 0,
    cacheCreation1hInputTokens: 0,
    cacheReadInputTokens: cacheRead,
    ...(reasoning !== undefined && reasoning > 0 ? { reasoningOutputTokens: reasoning } : {}),
  };
}
