/** A session's usage per model from its records (`Session.usageByModel`), as `loadSession` and a stream count it. */
import type { TranscriptRecord } from '../model/record.js';
import type { UsageTotals } from '../model/session.js';

/** Usage per model: each response once (by message id), the largest output count of its block records. */
export function usageByModel(records: Iterable<TranscriptRecord>): Record<string, UsageTotals> {
  const perMessage = new Map<string, { model: string; usage: NonNullable<ChainUsage> }>();
  for (const record of records) {
    if (record.kind !== 'assistant' || record.isSynthetic || !record.usage || record.model === undefined) continue;
    const key = record.messageId ?? record.uuid;
    const prev = perMessage.get(key);
    if (!prev || record.usage.outputTokens > prev.usage.outputTokens) {
      perMessage.set(key, { model: record.model, usage: record.usage });
    }
  }
  const totals: Record<string, UsageTotals> = {};
  for (const { model, usage } of perMessage.values()) {
    const t = totals[model] ?? {
      responses: 0,
      inputTokens: 0,
      outputTokens: 0,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 0,
      reasoningOutputTokens: 0,
    };
    totals[model] = {
      responses: t.responses + 1,
      inputTokens: t.inputTokens + usage.inputTokens,
      outputTokens: t.outputTokens + usage.outputTokens,
      cacheCreationInputTokens: t.cacheCreationInputTokens + usage.cacheCreationInputTokens,
      cacheReadInputTokens: t.cacheReadInputTokens + usage.cacheReadInputTokens,
      reasoningOutputTokens: t.reasoningOutputTokens + (usage.reasoningOutputTokens ?? 0),
    };
  }
  return totals;
}
type ChainUsage = Extract<TranscriptRecord, { kind: 'assistant' }>['usage'];
