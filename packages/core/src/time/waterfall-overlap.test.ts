/**
 * A lane's stretches are drawn once each: two calls waiting together for the person's approval (wild git-sync-15
 * `665c2e57`: two parallel Bash calls, 1,347 s each) gave two idle bands over the same time, the lane's stretches
 * summing past its length.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { discoverAll } from '../agents/discover-all.js';
import { groupSessions } from '../io/discover.js';
import { loadSession } from '../session/load-session.js';
import type { Interval } from './partition.js';
import { waterfallOf } from './waterfall.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-waterfall-overlap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const length = (intervals: readonly Interval[]) => intervals.reduce((n, i) => n + i.endMs - i.startMs, 0);
const disjoint = (intervals: readonly Interval[]) => {
  const sorted = [...intervals].sort((a, b) => a.startMs - b.startMs);
  return sorted.every((i, n) => n === 0 || i.startMs >= (sorted[n - 1]?.endMs ?? 0));
};

it('draws two approvals waited for together as one idle stretch, the lane no longer than its stretches', async () => {
  const session = '0e7e1a9b-0000-4000-8000-00000000a11e';
  const t0 = Date.parse('2026-03-02T09:00:00Z');
  const base = (uuid: string, parentUuid: string | null, ms: number) => ({
    sessionId: session,
    uuid,
    parentUuid,
    timestamp: new Date(t0 + ms).toISOString(),
  });
  const MIN = 60_000;
  writeLines(join(dir, 'projects', 'p', `${session}.jsonl`), [
    prompt(base('u1', null, 0), 'push both branches'),
    toolUse(base('a1', 'u1', 2_000), 'msg_1', 'toolu_a', 'Bash', { command: 'git push origin a' }),
    toolUse(base('a2', 'a1', 2_600), 'msg_1', 'toolu_b', 'Bash', { command: 'git push origin b' }),
    // both approved 22 minutes later, a second apart
    toolResult(base('r1', 'a2', 22 * MIN), 'toolu_a', 'pushed a', false),
    toolResult(base('r2', 'r1', 22 * MIN + 1_000), 'toolu_b', 'pushed b', false),
    assistantText(base('a3', 'r2', 22 * MIN + 5_000), 'msg_2', 'Both pushed.'),
  ]);
  const [group] = groupSessions((await discoverAll([dir])).files);
  const [main] = waterfallOf(await loadSession(group!)).lanes;
  expect(main).toBeDefined();
  const lane = main!;
  for (const [name, intervals] of [
    ['idle', lane.idle],
    ['user', lane.user],
    ['model', lane.model],
  ] as const) {
    expect(disjoint(intervals), name).toBe(true);
  }
  expect(lane.idle.length).toBe(1);
  expect(disjoint([...lane.idle, ...lane.user, ...lane.model])).toBe(true);
  expect(length(lane.idle) + length(lane.user) + length(lane.model)).toBeLessThanOrEqual(lane.endMs - lane.startMs);
});
