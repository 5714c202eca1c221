import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copiedPromptsOf } from '../test/copied-prompts.js';
import { type AgentIndex, openIndex } from './index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const corpusRoot = resolve(repoRoot, '../shared/corpus');
const versions = existsSync(corpusRoot)
  ? readdirSync(corpusRoot).filter((v) => existsSync(join(corpusRoot, v, 'claude-home')))
  : [];

// Says "skipped" only when it is.
const suiteTitle = versions.length === 0 ? 'corpus (skipped: ../shared/corpus is not present)' : 'corpus';
describe.skipIf(versions.length === 0)(suiteTitle, () => {
  let dir: string;
  let index: AgentIndex;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-index-corpus-'));
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  });
  afterAll(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const version of versions) {
    it(`${version}: summaries computed from stored rows equal core's loadSession; a second refresh reads nothing`, async () => {
      const home = join(corpusRoot, version, 'claude-home');
      const first = await index.refresh([home]);
      expect(first.filesParsed).toBe(first.files);
      expect(first.newIssues).toBe(first.issues);
      const second = await index.refresh([home]);
      expect(second).toMatchObject({ filesParsed: 0, bytesParsed: 0, records: 0 });

      const sessions = index.listSessions({ paths: [home] });
      expect(sessions.length).toBe(first.sessions);
      // One call counts once everywhere: the list's calls add up to the unique calls of the statistics.
      expect(sessions.reduce((n, s) => n + s.toolCalls, 0)).toBe(index.stats({ paths: [home] }).calls);
      // Each response counts for the session that owns it (a resume's copies for the session they come from).
      const ownedOutput = new Map<string, number>();
      for (const r of index.usageResponses({ paths: [home] })) {
        ownedOutput.set(r.context.sessionKey, (ownedOutput.get(r.context.sessionKey) ?? 0) + r.tokens.outputTokens);
      }
      for (const summary of sessions) {
        const session = await index.loadSession(summary.ref);
        // Every response of the transcript is stored (the session's own rows equal core's), and its row counts those
        // it owns.
        const held = index.usageResponses({ sessionId: summary.key }).reduce((a, r) => a + r.tokens.outputTokens, 0);
        expect(held).toBe(Object.values(session.usageByModel).reduce((a, u) => a + u.outputTokens, 0));
        const outputTokens = ownedOutput.get(summary.key) ?? 0;
        // The calls the session owns (a call copied into a resume or fork belongs to its first session).
        const rows = new Map(index.calls({ sessionId: summary.ref }).map((r) => [r.callId, r]));
        const owned = session.calls.filter((c) => rows.has(c.id));
        expect(owned.length).toBe(rows.size);
        expect({
          id: summary.id,
          toolCalls: summary.toolCalls,
          errors: summary.errors,
          expectedErrors: summary.expectedErrors,
          title: summary.title,
          titleSource: summary.titleSource,
          projectPath: summary.projectPath,
          startedAt: summary.startedAt,
          endedAt: summary.endedAt,
          versions: summary.versions,
          models: summary.models,
          prompts: summary.prompts,
          outputTokens: summary.usage.outputTokens,
        }).toEqual({
          id: session.id,
          toolCalls: owned.length,
          errors: owned.filter((c) => c.status === 'error').length,
          expectedErrors: owned.filter((c) => c.result?.error?.severity === 'expected').length,
          title: session.title,
          titleSource: session.titleSource,
          projectPath: session.projectPath,
          startedAt: session.startedAt,
          endedAt: session.endedAt,
          versions: session.versions,
          models: session.models,
          // its own: those a resume or fork copied count in the session they come from
          prompts: session.counts.prompts - (await copiedPromptsOf(index, summary.ref, session)),
          outputTokens,
        });
        // Every owned call's stored classification equals core's.
        for (const call of owned) {
          const row = rows.get(call.id);
          expect([call.id, row?.status === 'error', row?.category, row?.severity]).toEqual([
            call.id,
            call.status === 'error',
            call.result?.error?.category,
            call.result?.error?.severity,
          ]);
        }
      }
    });
  }
});
