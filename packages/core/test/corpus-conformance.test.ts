import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { streamRecords } from '../src/adapters/claude-code/read-records.js';
import { discoverFiles, groupSessions } from '../src/io/discover.js';
import type { TranscriptRecord } from '../src/model/record.js';
import { loadSession, usageByModel } from '../src/session/load-session.js';
import { corpusDir, corpusVersions, hasCorpus } from './helpers.js';

const LINE_ISSUES = new Set(['invalid_json', 'not_an_object', 'schema_mismatch', 'line_too_long']);

if (!hasCorpus) {
  describe('corpus conformance', () => {
    it.skip(`skipped: the real-client corpus is not at ${corpusDir} (it is in CI and on the team's machines)`, () => {});
  });
}

describe.skipIf(!hasCorpus)('corpus conformance (every file of every client version)', () => {
  for (const version of corpusVersions) {
    const home = join(corpusDir, version, 'claude-home');

    it(`${version}: every non-blank line is a typed record or a reported issue`, async () => {
      const { files } = await discoverFiles([home]);
      expect(files.length).toBeGreaterThan(20);
      for (const file of files) {
        const nonBlank = readFileSync(file.path, 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== '').length;
        let accounted = 0;
        await streamRecords(file.path, (event) => {
          if (event.kind === 'record' || LINE_ISSUES.has(event.issue.code)) accounted += 1;
        });
        expect({ file: file.path, accounted }).toEqual({ file: file.path, accounted: nonBlank });
      }
    });

    it(`${version}: every tool_use that has a result anywhere is paired, and no result is orphaned`, async () => {
      const { files } = await discoverFiles([home]);
      // Independent count, straight from the JSON.
      const useIds = new Set<string>();
      const resultIds = new Set<string>();
      for (const file of files) {
        for (const line of readFileSync(file.path, 'utf8').split('\n')) {
          if (line.trim() === '') continue;
          const record = JSON.parse(line) as { message?: { content?: unknown } };
          const content = record.message?.content;
          if (!Array.isArray(content)) continue;
          for (const block of content as { type?: string; id?: string; tool_use_id?: string }[]) {
            if (block.type === 'tool_use' && block.id) useIds.add(block.id);
            if (block.type === 'tool_result' && block.tool_use_id) resultIds.add(block.tool_use_id);
          }
        }
      }
      const paired = new Set<string>();
      const seenCalls = new Set<string>();
      let orphans = 0;
      for (const group of groupSessions(files)) {
        const session = await loadSession(group);
        for (const call of session.calls) {
          seenCalls.add(call.id);
          if (call.result) paired.add(call.id);
        }
        orphans += session.orphanResults.length;
      }
      const expected = [...useIds].filter((id) => resultIds.has(id)).sort();
      expect([...paired].sort()).toEqual(expected);
      expect([...seenCalls].sort()).toEqual([...useIds].sort());
      expect(orphans).toBe(0);
    });

    it(`${version}: token usage per API response equals what the model served (truth.jsonl)`, async () => {
      const truth = new Map<string, { model: string; usage: Record<string, number> }>();
      for (const line of readFileSync(join(corpusDir, version, 'truth.jsonl'), 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const t = JSON.parse(line) as { messageId?: string; model: string; usage: Record<string, number> };
        if (t.messageId) truth.set(t.messageId, t);
      }
      const { files } = await discoverFiles([home]);
      const byMessage = new Map<string, TranscriptRecord[]>();
      for (const file of files) {
        await streamRecords(file.path, (event) => {
          if (event.kind !== 'record' || event.record.kind !== 'assistant' || event.record.isSynthetic) return;
          const key = event.record.messageId ?? event.record.uuid;
          byMessage.set(key, [...(byMessage.get(key) ?? []), event.record]);
        });
      }
      let compared = 0;
      for (const [messageId, records] of byMessage) {
        const served = truth.get(messageId);
        if (!served) continue;
        const totals = usageByModel(records)[served.model];
        expect({ messageId, totals }).toEqual({
          messageId,
          totals: {
            responses: 1,
            inputTokens: served.usage.input_tokens,
            outputTokens: served.usage.output_tokens,
            cacheCreationInputTokens: served.usage.cache_creation_input_tokens,
            cacheReadInputTokens: served.usage.cache_read_input_tokens,
            // Claude Code reports no reasoning part of its output.
            reasoningOutputTokens: 0,
          },
        });
        compared += 1;
      }
      expect(compared).toBeGreaterThan(400);
      // Totals: equal to the served conversation totals, less responses the client never wrote to any transcript.
      const summary = JSON.parse(readFileSync(join(corpusDir, version, 'truth-summary.json'), 'utf8')) as {
        conversationTotalsByModel: Record<string, { responses: number; output_tokens: number }>;
      };
      const all = usageByModel([...byMessage.values()].flat());
      for (const [model, served] of Object.entries(summary.conversationTotalsByModel)) {
        const unwritten = [...truth.values()].filter(
          (t) => t.model === model && !byMessage.has((t as { messageId?: string }).messageId ?? ''),
        );
        const conversationUnwritten = unwritten.filter((t) => (t as { kind?: string }).kind !== 'side');
        expect(all[model]?.responses).toBeLessThanOrEqual(served.responses);
        expect(served.responses - (all[model]?.responses ?? 0)).toBeLessThanOrEqual(conversationUnwritten.length);
      }
    });

    it(`${version}: loads every session without an exception and with no unexpected issue`, async () => {
      const { files, issues } = await discoverFiles([home]);
      expect(issues).toEqual([]);
      const codes: Record<string, number> = {};
      for (const group of groupSessions(files)) {
        const session = await loadSession(group);
        for (const issue of session.issues) codes[issue.code] = (codes[issue.code] ?? 0) + 1;
        expect(session.projectPath === undefined || session.projectPath.startsWith('/home/user/')).toBe(true);
      }
      expect(codes).toEqual({});
    });
  }
});
