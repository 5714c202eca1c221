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

/** The token fields of Copilot's usage objects, as written (`inputTokens` includes the cached part). */
const FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;
type Counts = Record<(typeof FIELDS)[number], number>;

/**
 * What a file's responses have counted, per model, against the totals `session.shutdown` writes
 * (`modelMetrics[model].usage`). Those totals are the session's so far, across resumes (1.0.102: the second shutdown
 * of a resumed session holds all four of its responses, and equals what they recorded one by one). Versions that
 * write only each response's output tokens (1.0.64, 1.0.68) leave the input to the shutdown: what its totals hold
 * beyond what the responses counted is a remainder, counted once, so that the session's tokens and cost are whole.
 */
export class ModelTotals {
  private readonly counted = new Map<string, Counts>();

  /** A response's usage as written (`usageOfRecord`'s input). */
  add(model: string, usage: Readonly<Record<string, unknown>>): void {
    const counts = this.countsOf(model);
    for (const field of FIELDS) counts[field] += Math.max(0, num(usage[field]) ?? 0);
  }

  /** The models whose shutdown totals hold more than was counted, with what more (then counted as well). */
  remainders(modelMetrics: unknown): [model: string, usage: Counts][] {
    if (typeof modelMetrics !== 'object' || modelMetrics === null) return [];
    const out: [string, Counts][] = [];
    for (const [model, metrics] of Object.entries(modelMetrics)) {
      const usage = (metrics as { usage?: unknown } | null)?.usage;
      if (typeof usage !== 'object' || usage === null) continue;
      const counts = this.countsOf(model);
      const more = Object.fromEntries(
        FIELDS.map((field) => [
          field,
          Math.max(0, (num((usage as Record<string, unknown>)[field]) ?? 0) - counts[field]),
        ]),
      ) as Counts;
      if (FIELDS.every((field) => more[field] === 0)) continue;
      for (const field of FIELDS) counts[field] += more[field];
      out.push([model, more]);
    }
    return out;
  }

  private countsOf(model: string): Counts {
    let counts = this.counted.get(model);
    if (counts === undefined) {
      counts = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
      this.counted.set(model, counts);
    }
    return counts;
  }
}
