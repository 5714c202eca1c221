/**
 * `sessions.usage_detail`: a session's responses summed per model, thread (main or subagent) and request-size band
 * (core's `promptBand`), as session-usage.ts writes it and read/session-cost.ts prices it.
 */
import { promptBand, promptTokens } from '@agentdash/core';
import type { TokenCounts } from '@agentdash/core/usage';
import { emptyUsageSummary } from '../read/session-cost.js';
import type { UsagePart } from '../types.js';

/** A response as the detail sums it: its model, thread (null: the main one) and tokens. */
interface DetailResponse {
  readonly model: string;
  readonly context: string | null;
  readonly tokens: TokenCounts;
  readonly inputUnrecorded?: boolean | undefined;
  readonly outputUnrecorded?: boolean | undefined;
}

/**
 * `sessions.usage_detail`: the responses summed per model, thread and request-size band (core's `promptBand`), in a
 * stable order (not the files' import order), so that an index read in pieces equals one read at once.
 */
export function usageDetail(
  responses: readonly DetailResponse[],
  billedNone: readonly Pick<DetailResponse, 'model' | 'context'>[] = [],
  warmups: ReadonlySet<string> = new Set(),
): string {
  const parts = new Map<string, UsagePart>();
  // the main thread's, and the client's cache warm-ups' (no subagent: the list counts none)
  const threadOf = (context: string | null) => (context === null || warmups.has(context) ? 'main' : 'subagent');
  // A part of no response for each model and thread of `billedNone` (a session all of whose responses are others')
  for (const { model, context } of billedNone) {
    const thread = threadOf(context);
    parts.set(`${model}\u0000${thread}\u00000`, { ...emptyUsageSummary, model, thread, band: 0 });
  }
  for (const response of responses) {
    const t = response.tokens;
    const thread = threadOf(response.context);
    const band = promptBand(promptTokens(t));
    const key = `${response.model}\u0000${thread}\u0000${band}`;
    const p = parts.get(key);
    const unrecorded = (p?.inputUnrecorded ?? 0) + (response.inputUnrecorded ? 1 : 0);
    const cut = (p?.outputUnrecorded ?? 0) + (response.outputUnrecorded ? 1 : 0);
    parts.set(key, {
      model: response.model,
      thread,
      band,
      responses: (p?.responses ?? 0) + 1,
      inputTokens: (p?.inputTokens ?? 0) + t.inputTokens,
      outputTokens: (p?.outputTokens ?? 0) + t.outputTokens,
      cacheCreationInputTokens: (p?.cacheCreationInputTokens ?? 0) + t.cacheCreationInputTokens,
      cacheCreation1hInputTokens: (p?.cacheCreation1hInputTokens ?? 0) + t.cacheCreation1hInputTokens,
      cacheReadInputTokens: (p?.cacheReadInputTokens ?? 0) + t.cacheReadInputTokens,
      reasoningOutputTokens: (p?.reasoningOutputTokens ?? 0) + t.reasoningOutputTokens,
      // Only where some response recorded no input: every other session's detail is as before.
      ...(unrecorded > 0 ? { inputUnrecorded: unrecorded } : {}),
      // Only where some response kept the stream's first output count (core's `ResponseUsage.outputUnrecorded`).
      ...(cut > 0 ? { outputUnrecorded: cut } : {}),
    });
  }
  const detail = [...parts.values()].sort(
    (a, b) => a.thread.localeCompare(b.thread) || a.model.localeCompare(b.model) || a.band - b.band,
  );
  return JSON.stringify(detail);
}
