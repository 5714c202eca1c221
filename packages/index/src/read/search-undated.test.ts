/**
 * `search --since` over documents without a time of their own: a legacy Codex rollout (Aug 2025) dates only its
 * header, so none of its texts has a time. They were all left out of a dated search (`d.ts_ms >= ?`), while
 * `sessions --since` listed the session (../shared/wild-agents ocodex-1: "the" 17 hits, 0 with --since 2025-08-01).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from '../index.js';

let dir: string;
let index: AgentIndex;
const ID = '8b2b1191-fa67-43cc-ba56-54a20dca0a96';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-search-undated-'));
  const folder = join(dir, 'codex-home', 'sessions', '2025', '08', '25');
  mkdirSync(folder, { recursive: true });
  const lines = [
    { id: ID, timestamp: '2025-08-25T13:19:59.315Z', instructions: null },
    { record_type: 'state' },
    { type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text: 'Tidy the walrus module.' }] },
    { type: 'message', id: null, role: 'assistant', content: [{ type: 'output_text', text: 'The walrus is tidy.' }] },
  ];
  writeFileSync(
    join(folder, `rollout-2025-08-25T13-19-59-${ID}.jsonl`),
    `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
  );
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  await index.refresh([join(dir, 'codex-home')]);
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a dated search over texts without a time', () => {
  it('dates them by their session’s start, as the sessions list does', async () => {
    const all = await index.search('walrus');
    expect(all.map((h) => [h.kind, h.timestamp])).toEqual([
      ['prompt', undefined],
      ['assistant', undefined],
    ]);
    expect(await index.search('walrus', { since: '2025-08-01T00:00:00Z' })).toHaveLength(2);
    expect(await index.search('walrus', { since: '2025-08-26T00:00:00Z' })).toEqual([]);
  });
});
