/**
 * Codex rollouts of the legacy format (Codex CLI ≤ ~0.2x, Aug 2025) date only their header line: every item after it
 * has no time. Where a time is unknown the session says so (undefined), never 0, 1970 or a duration made up from
 * the one time it has; the header's own time is the session's start.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { codexAdapter } from '../src/adapters/codex/adapter.js';
import { groupSessions } from '../src/index.js';
import { loadSession } from '../src/session/load-session.js';
import { repoRoot } from './helpers.js';

const legacy = resolve(repoRoot, '../shared/wild-agents/codex/ocodex-1');

/** A rollout's header time and whether an item (a line other than a `record_type` state line) follows it. */
function headerOf(path: string): { at: string; items: number } {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const items = lines.slice(1).filter((l) => l.record_type === undefined);
  expect(items.every((l) => l.timestamp === undefined)).toBe(true);
  return { at: String(lines[0]?.timestamp), items: items.length };
}

describe.skipIf(!existsSync(legacy))('legacy Codex rollouts, undated but for their header', () => {
  test('start is the header time, the end is unknown, no event or call is dated', async () => {
    const { files } = await codexAdapter.discover(legacy);
    const groups = groupSessions(files);
    expect(groups.length).toBe(
      readdirSync(legacy, { recursive: true }).filter((p) => String(p).endsWith('.jsonl')).length,
    );
    const wrong: string[] = [];
    let withItems = 0;
    for (const group of groups) {
      const session = await loadSession(group);
      const path = group.main?.path ?? '';
      const { at, items } = headerOf(path);
      const name = path.split('/').at(-1);
      if (session.startedAt !== at) wrong.push(`${name}: started ${session.startedAt}, header ${at}`);
      // Items after the header ran at times the file does not tell: the session ended at an unknown time.
      if (items > 0) {
        withItems++;
        if (session.endedAt !== undefined) wrong.push(`${name}: ended ${session.endedAt}, ${items} undated items`);
      } else if (session.endedAt !== at) wrong.push(`${name}: header only, ended ${session.endedAt}`);
      const text = JSON.stringify(session);
      if (/1970-01-01/.test(text)) wrong.push(`${name}: a 1970 date`);
      for (const e of session.events)
        if ('timestamp' in e && e.timestamp !== undefined && e.timestamp !== at)
          wrong.push(`${name}: event ${e.timestamp}`);
      // A call's duration is only the client's own (its output's duration_seconds), never one from timestamps.
      for (const c of session.calls)
        for (const d of c.durations ?? [])
          if (d.source !== 'durationSeconds') wrong.push(`${name}: ${c.name} ${d.source} ${d.ms} ms`);
    }
    expect(wrong).toEqual([]);
    expect(withItems).toBeGreaterThan(3);
  });
});
