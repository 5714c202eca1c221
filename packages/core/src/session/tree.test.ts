import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { samplesHome } from '../../test/helpers.js';
import { readRecords } from '../adapters/claude-code/read-records.js';
import { buildRecordTree, pathTo } from './tree.js';

describe('record tree', () => {
  it('follows a compaction boundary through logicalParentUuid back to the first prompt', async () => {
    // 1.0.128 continuation: /compact wrote a compact_boundary (parentUuid null) and continued the conversation.
    const file = join(samplesHome, 'projects/-home-user-proj-continuation/68c8b9d0-8a06-4c2a-a68a-587cc682f49f.jsonl');
    const { records } = await readRecords(file);
    const tree = buildRecordTree(records);
    const boundary = records.find((r) => r.kind === 'system' && r.subtype === 'compact_boundary');
    expect(boundary?.kind === 'system' ? [boundary.parentUuid, typeof boundary.logicalParentUuid] : []).toEqual([
      null,
      'string',
    ]);
    const last = [...tree.byUuid.values()].at(-1);
    if (!last) throw new Error('empty');
    const path = pathTo(tree, last.uuid);
    expect(path.some((r) => r.kind === 'system' && r.subtype === 'compact_boundary')).toBe(true);
    expect(path[0]?.parentUuid).toBe(null);
    expect(path[0]?.kind).toBe('user');
    // Only true roots remain roots: the boundary hangs off its logical parent.
    expect(tree.roots.some((r) => r.kind === 'system')).toBe(false);
  });

  it('walks attachment records as chain links (2.1.330 writes them between a prompt and the reply)', async () => {
    const file = join(samplesHome, 'projects/-home-user-proj-files/0097a0c6-9ed3-4b4b-8663-59e78bc0fccc.jsonl');
    const { records } = await readRecords(file);
    const tree = buildRecordTree(records);
    const firstReply = records.find((r) => r.kind === 'assistant');
    if (firstReply?.kind !== 'assistant') throw new Error('no reply');
    const kinds = pathTo(tree, firstReply.uuid).map((r) => r.kind);
    expect(kinds[0]).toBe('user');
    expect(kinds.at(-1)).toBe('assistant');
    expect(kinds.filter((k) => k === 'attachment').length).toBeGreaterThan(3);
  });
});
