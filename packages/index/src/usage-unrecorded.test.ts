import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultPriceTable, mergePriceTables, totalsOf } from '@agentdash/core';
import { costIsLowerBound, formatCost } from '@agentdash/core/present';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** Two real Copilot CLI files (1.0.64-1, 1.0.68): each message writes its output tokens only. */
const copilotWild = join(repoRoot, 'packages/core/test/fixtures/copilot/wild/entire-agentv-1');
const claudeUsage = join(repoRoot, 'packages/core/test/fixtures/usage');
/** A third, longer one (1.0.64, claude-sonnet-4.6) in ../shared (wild-agents/SOURCES.md), when present. */
const sharedCopilot = resolve(repoRoot, '../shared/wild-agents/other/copilot-cli/entire-agentv-1');

// gpt-5.4-mini has no built-in price: a price file gives it one here, so that its cost is known and can be bounded.
const prices = mergePriceTables(defaultPriceTable, {
  date: '2026-12-01',
  source: 'test',
  models: { 'gpt-5.4-mini': { input: 1e-6, output: 4e-6, cacheWrite5m: 1e-6, cacheWrite1h: 1e-6, cacheRead: 1e-7 } },
});

let dir: string;
let index: AgentIndex;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-unrecorded-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite'), prices });
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('responses that recorded no input (Copilot CLI 1.0.64, 1.0.68)', () => {
  it('a session costs its output at least: the cost is a lower bound, its tokens as recorded', async () => {
    await index.refresh([copilotWild]);
    const [session] = index.listSessions({ paths: [copilotWild] }).filter((s) => s.id.startsWith('487fbe81'));
    expect(session?.usage).toEqual({
      responses: 1,
      inputTokens: 0,
      outputTokens: 45,
      cacheCreationInputTokens: 0,
      cacheCreation1hInputTokens: 0,
      cacheReadInputTokens: 0,
      reasoningOutputTokens: 0,
    });
    expect([session?.costUsd, session?.unpricedModels, session?.inputUnrecordedModels]).toEqual([
      0.00018,
      [],
      ['gpt-5.4-mini'],
    ]);
    expect(formatCost(session?.costUsd, session)).toBe('$0.00018 + ?');
    // The usage reports' totals of it say the same.
    const totals = totalsOf(index.usageResponses({ sessionId: session?.key ?? '' }));
    expect([totals.costUsd, totals.inputUnrecordedModels, formatCost(totals.costUsd, totals)]).toEqual([
      0.00018,
      ['gpt-5.4-mini'],
      '$0.00018 + ?',
    ]);
    // And every total that holds it, with a session whose usage is whole.
    await index.refresh([claudeUsage]);
    const all = totalsOf(index.usageResponses({ paths: [copilotWild, claudeUsage] }));
    // The other file's one response (gpt-5.3-codex-spark, 0 output tokens, no price) recorded no input either.
    expect(all.inputUnrecordedModels).toEqual(['gpt-5.3-codex-spark', 'gpt-5.4-mini']);
    expect(costIsLowerBound(all)).toBe(true);
  });

  it('the sessions list by cost places a lower bound by its known part, and its row stays marked', async () => {
    await index.refresh([copilotWild, claudeUsage]);
    const paths = [copilotWild, claudeUsage];
    const page = index.pageSessions({ paths }, { sort: 'costUsd', descending: true, limit: 100 });
    const rows = page.sessions.map((s) => [s.id.slice(0, 8), formatCost(s.costUsd, s)]);
    // The Claude sessions' whole costs, then the Copilot one's $0.00018 (output only), then the one without a price.
    expect(rows).toEqual([
      ['5d1f6c2a', expect.stringMatching(/^\$0\.0\d+$/)],
      ['7e2a9b4c', expect.stringMatching(/^\$0\.0\d+$/)],
      ['487fbe81', '$0.00018 + ?'],
      ['1afc31c8', 'unknown'],
    ]);
  });

  it('leaves sessions whose usage is whole as they were: no gap, no `+ ?`', async () => {
    await index.refresh([claudeUsage]);
    const sessions = index.listSessions({ paths: [claudeUsage] });
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.filter((s) => 'inputUnrecordedModels' in s || costIsLowerBound(s))).toEqual([]);
    const totals = totalsOf(index.usageResponses({ paths: [claudeUsage] }));
    expect(['inputUnrecordedModels' in totals, formatCost(totals.costUsd, totals)]).toEqual([false, '$0.073']);
  });

  it.skipIf(!existsSync(sharedCopilot))('a 1.0.64 session of 53 responses reads $0.29 + ?, not $0.29', async () => {
    const db = openIndex({ dbPath: join(dir, 'shared.sqlite') });
    try {
      await db.refresh([sharedCopilot]);
      const [session] = db.listSessions({ paths: [sharedCopilot] }).filter((s) => s.id.startsWith('10fb4666'));
      // Output only, at Sonnet's $15 per million: 19,004 tokens.
      expect([session?.usage.responses, session?.usage.outputTokens, session?.usage.inputTokens]).toEqual([
        53, 19_004, 0,
      ]);
      expect([session?.costUsd, formatCost(session?.costUsd, session)]).toEqual([0.28506, '$0.29 + ?']);
    } finally {
      db.close();
    }
  });
});
