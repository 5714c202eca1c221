/**
 * The tokens of a Copilot session are whole: what `session.shutdown`'s totals hold beyond its responses (the input
 * of versions that record only each response's output) is counted once, and nothing more where every response
 * recorded its usage (1.0.102, a resumed session's cumulative totals included).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TranscriptRecord } from '../../model/record.js';
import { streamCopilotRecords } from './stream.js';
import { copilotHome102, copilotWild } from './test-helpers.js';

async function recordsOf(path: string): Promise<TranscriptRecord[]> {
  const records: TranscriptRecord[] = [];
  await streamCopilotRecords(path, (e) => {
    if (e.kind === 'record') records.push(e.record);
  });
  return records;
}

const sums = (records: readonly TranscriptRecord[]) => {
  const s = { input: 0, output: 0, cacheRead: 0, reasoning: 0, records: 0 };
  for (const r of records) {
    if (r.kind !== 'assistant' || r.usage === undefined) continue;
    s.records += 1;
    s.input += r.usage.inputTokens + r.usage.cacheReadInputTokens;
    s.output += r.usage.outputTokens;
    s.cacheRead += r.usage.cacheReadInputTokens;
    s.reasoning += r.usage.reasoningOutputTokens ?? 0;
  }
  return s;
};

const eventsFiles = (home: string) =>
  readdirSync(join(home, 'session-state')).map((id) => join(home, 'session-state', id, 'events.jsonl'));

describe("Copilot's shutdown totals", () => {
  it('fill in the input a 1.0.68 session recorded only at its shutdown, once', async () => {
    const path = eventsFiles(copilotWild).find((p) => p.includes('487fbe81'));
    expect(path).toBeDefined();
    const records = await recordsOf(path ?? '');
    // modelMetrics["gpt-5.4-mini"].usage: inputTokens 15517, outputTokens 45 (30 of them reasoning); the one
    // response recorded its 45 output tokens
    expect(sums(records)).toEqual({ input: 15_517, output: 45, cacheRead: 0, reasoning: 30, records: 2 });
  });

  it('add nothing where every response recorded its usage: 1.0.102, a resumed session included', async () => {
    for (const path of eventsFiles(copilotHome102)) {
      const records = await recordsOf(path);
      expect(
        records.filter((r) => r.kind === 'assistant' && r.messageId?.includes(':usage:')),
        path,
      ).toEqual([]);
    }
  });
});
