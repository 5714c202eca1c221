import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { totalsOf } from '@agentdash/core';
import { formatCost, formatTokenLine } from '@agentdash/core/present';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** A cut of a real 1.0.98 transcript: one of its three responses kept only the stream's first output count. */
const streamCounts = join(repoRoot, 'packages/core/test/fixtures/stream-counts');
const claudeUsage = join(repoRoot, 'packages/core/test/fixtures/usage');

let dir: string;
let index: AgentIndex;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-output-cut-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a response whose records kept only the stream's first output count", () => {
  it('makes its session’s output and cost lower bounds, its counts as recorded', async () => {
    await index.refresh([streamCounts]);
    const [session] = index.listSessions({ paths: [streamCounts] });
    // Each response once, with its largest count: 172 + 1 + 598.
    expect([session?.usage.responses, session?.usage.outputTokens]).toEqual([3, 771]);
    expect(session?.outputUnrecordedModels).toEqual(['claude-sonnet-4-20250514']);
    expect(session?.inputUnrecordedModels).toBeUndefined();
    expect(formatCost(session?.costUsd, session)).toMatch(/^\$0\.\d+ \+ \?$/);
    expect(formatTokenLine(session?.usage ?? totalsOf([]), session)).toMatch(/· 771 \+ \? out ·/);
    // The usage reports' totals say the same, and a total that holds it with whole sessions too.
    const own = totalsOf(index.usageResponses({ sessionId: session?.key ?? '' }));
    expect([own.outputTokens, own.outputUnrecordedModels]).toEqual([771, ['claude-sonnet-4-20250514']]);
    await index.refresh([streamCounts, claudeUsage]);
    const all = totalsOf(index.usageResponses({ paths: [streamCounts, claudeUsage] }));
    expect(all.outputUnrecordedModels).toEqual(['claude-sonnet-4-20250514']);
    expect(formatCost(all.costUsd, all)).toMatch(/ \+ \?$/);
  });

  it('leaves sessions whose every response has its final count as they were', async () => {
    await index.refresh([claudeUsage]);
    const sessions = index.listSessions({ paths: [claudeUsage] });
    expect(sessions.length).toBeGreaterThan(0);
    for (const s of sessions) {
      expect(s.outputUnrecordedModels).toBeUndefined();
      expect(formatCost(s.costUsd, s)).not.toMatch(/\?/);
    }
  });
});
