/**
 * Responses whose transcript kept the stream's first output count (usage/output-floor.ts), against real data: none
 * in the corpus, whose truth.jsonl says every recorded count is the served one; some in the wild set, which other
 * people's clients wrote against the real API; and the bundled cut of one such wild transcript, exactly.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatResponseOutput } from '../src/present/numbers.js';
import { dedupeResponses } from '../src/usage/dedupe.js';
import { corpusDir, corpusVersions, hasCorpus, loadSessions, repoRoot, usageRecordsUnder } from './helpers.js';

const wildHome = join(repoRoot, '../shared/wild/claude-home');
const hasWild = existsSync(wildHome);

async function responsesUnder(home: string) {
  return dedupeResponses(await usageRecordsUnder(home));
}

describe("a response whose records kept only the stream's first output count", () => {
  it('is found in the bundled cut of a real 1.0.98 transcript, and only where no record has the final count', async () => {
    const [session] = await loadSessions(join(repoRoot, 'packages/core/test/fixtures/stream-counts'));
    const responses = (session?.events ?? []).flatMap((e) =>
      e.kind === 'assistant' ? [[e.messageId, formatResponseOutput(e.usage)]] : [],
    );
    expect(responses).toEqual([
      ['msg_0175yHhPUPFGbabUiDkdjvaD', '172 tokens out'],
      ['msg_01USxtUXmWaa9bAeQETXfNr5', '1 + ? tokens out'],
      ['msg_01PrGGvEvreqPUaqe4qRsCgA', '598 tokens out'],
    ]);
  });

  it.skipIf(!hasCorpus)(
    `is never found in the corpus, whose every recorded count is the served one${hasCorpus ? '' : ' (skipped: ../shared/corpus is not present)'}`,
    async () => {
      const found: string[] = [];
      let responses = 0;
      for (const version of corpusVersions) {
        for (const r of await responsesUnder(join(corpusDir, version, 'claude-home'))) {
          responses += 1;
          if (r.outputUnrecorded) found.push(`${version} ${r.key} ${r.tokens.outputTokens}`);
        }
      }
      expect(responses).toBeGreaterThan(1500);
      expect(found).toEqual([]);
    },
  );

  it.skipIf(!hasWild)(
    `is found in the wild set, where real clients wrote block records before the final count${hasWild ? '' : ' (skipped: ../shared/wild is not present)'}`,
    async () => {
      const responses = await responsesUnder(wildHome);
      const cut = responses.filter((r) => r.outputUnrecorded);
      // The 1.0.98 response of the bundled cut among them; every one with a small count (the stream's first), in
      // several client versions' files.
      expect(cut.map((r) => r.key)).toContain('msg_01USxtUXmWaa9bAeQETXfNr5');
      expect(cut.length).toBeGreaterThan(100);
      expect(cut.length).toBeLessThan(responses.length / 4);
      expect(Math.max(...cut.map((r) => r.tokens.outputTokens))).toBeLessThan(64);
      expect(new Set(cut.map((r) => r.context.split('/projects/')[1]?.split('/')[0])).size).toBeGreaterThan(10);
    },
  );
});
