import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const codexCorpus = resolve(repoRoot, '../shared/corpus-agents/codex');
const claudeUsage = resolve(repoRoot, 'packages/core/test/fixtures/usage/projects');
const codexVersions = ['0.50.0', '0.98.0', '0.169.0'] as const;

interface Served {
  readonly usage?: null | {
    readonly output_tokens: number;
    readonly output_tokens_details?: { readonly reasoning_tokens?: number };
  };
}

function served(version: string): Served[] {
  return readFileSync(join(codexCorpus, version, 'truth.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Served)
    .filter((s) => s.usage != null);
}

let dir: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-reasoning-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

function totals(): { output: number; reasoning: number; responseOutput: number; responseReasoning: number } {
  const sessions = index.listSessions({});
  const responses = index.usageResponses({});
  return {
    output: sessions.reduce((n, s) => n + s.usage.outputTokens, 0),
    reasoning: sessions.reduce((n, s) => n + s.usage.reasoningOutputTokens, 0),
    responseOutput: responses.reduce((n, r) => n + r.tokens.outputTokens, 0),
    responseReasoning: responses.reduce((n, r) => n + r.tokens.reasoningOutputTokens, 0),
  };
}

// Says "skipped" only when it is.
const suiteTitle = !existsSync(codexCorpus)
  ? 'reasoning tokens of Codex sessions (skipped: ../shared/corpus-agents/codex is not present)'
  : 'reasoning tokens of Codex sessions';
describe.skipIf(!existsSync(codexCorpus))(suiteTitle, () => {
  it.each(codexVersions)(
    '%s: stored per response, part of the output, equal to what the API served',
    async (version) => {
      await index.refresh([join(codexCorpus, version, 'codex-home')]);
      const truth = served(version);
      const output = truth.reduce((n, s) => n + (s.usage?.output_tokens ?? 0), 0);
      const reasoning = truth.reduce((n, s) => n + (s.usage?.output_tokens_details?.reasoning_tokens ?? 0), 0);
      expect(reasoning).toBeGreaterThan(0);
      expect(totals()).toEqual({ output, reasoning, responseOutput: output, responseReasoning: reasoning });
    },
  );
});

describe('reasoning tokens of Claude Code sessions', () => {
  it('are 0: Claude Code reports no reasoning part of its output', async () => {
    await index.refresh([claudeUsage]);
    const t = totals();
    expect(t.output).toBeGreaterThan(0);
    expect({ reasoning: t.reasoning, responseReasoning: t.responseReasoning }).toEqual({
      reasoning: 0,
      responseReasoning: 0,
    });
  });
});
