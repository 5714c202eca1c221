import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dedupeResponses } from '../src/usage/dedupe.js';
import { corpusDir, corpusVersions, hasCorpus, usageRecordsUnder } from './helpers.js';

// Says "skipped" only when it is.
const suiteTitle = !hasCorpus
  ? 'usage against the corpus truth (skipped: ../shared/corpus is not present)'
  : 'usage against the corpus truth';
describe.skipIf(!hasCorpus)(suiteTitle, () => {
  for (const version of corpusVersions) {
    it(`${version}: per model, the responses and tokens the transcripts hold equal what the API served`, async () => {
      const records = await usageRecordsUnder(join(corpusDir, version, 'claude-home'));
      const responses = dedupeResponses(records);
      const summary = JSON.parse(readFileSync(join(corpusDir, version, 'truth-summary.json'), 'utf8')) as {
        conversationTotalsByModel: Record<string, Record<string, number>>;
      };
      const ours: Record<string, Record<string, number>> = {};
      const add = (model: string, t: Record<string, number>) => {
        const m = ours[model] ?? {};
        ours[model] = m;
        for (const [field, value] of Object.entries(t)) m[field] = (m[field] ?? 0) + value;
      };
      for (const r of responses) {
        add(r.model, {
          responses: 1,
          input_tokens: r.tokens.inputTokens,
          output_tokens: r.tokens.outputTokens,
          cache_creation_input_tokens: r.tokens.cacheCreationInputTokens,
          cache_read_input_tokens: r.tokens.cacheReadInputTokens,
        });
      }
      // Conversation responses the client never wrote to any transcript (2.0.76 writes no warmup agent file for
      // the probe run): served, but nowhere to count them from. Added back so that the totals compare.
      const written = new Set(responses.map((r) => r.messageId));
      const unwritten = readFileSync(join(corpusDir, version, 'truth.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map(
          (line) =>
            JSON.parse(line) as {
              kind: string;
              messageId?: string;
              model: string;
              usage: null | Record<string, number>;
            },
        )
        .filter(
          (t) => ['script', 'warmup', 'unscripted'].includes(t.kind) && t.usage !== null && !written.has(t.messageId),
        );
      for (const t of unwritten) add(t.model, { responses: 1, ...t.usage });
      expect(unwritten.map((t) => t.kind)).toEqual(version === '2.0.76' ? ['warmup', 'warmup'] : []);
      // Each response once, the largest count of its block records: exactly what the API served to the
      // conversations (FORMAT.md §11; side requests such as titles are not in transcripts).
      expect(ours).toEqual(summary.conversationTotalsByModel);
    });
  }
});
