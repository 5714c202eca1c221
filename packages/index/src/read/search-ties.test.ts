/**
 * Hits ranked alike come in one order whatever order the files were indexed in: an index upgraded from an older
 * one and a fresh one of the same home gave 24 of 50 hits of `search error` in other orders (a review of the index
 * across upgrades), SQLite's order among equal ranks following the ids, which follow the import order.
 */
import { join } from 'node:path';
import { writeDemoHome } from '@agentdash/testing/synthetic';
import { describe, expect, it } from 'vitest';
import { useTempIndex } from '../../test/temp-index.js';

const t = useTempIndex('agentdash-search-ties-');
const IDS = ['7e5a0000-0000-4000-8000-000000000001', '7e5a0000-0000-4000-8000-000000000002'];

describe('search hits ranked alike', () => {
  it('come in the same order from two indexes that read the same files in opposite orders', async () => {
    const homes = IDS.map((id, i) => {
      const home = join(t.dir, `home-${i}`);
      writeDemoHome(home, { outputOnlyWord: 'alike', subagentOnlyWord: 'other' }, id);
      return home;
    });
    const order = async (name: string, first: string) => {
      const index = t.open(name);
      try {
        await index.refresh([first]);
        await index.refresh(homes);
        const hits = await index.search('alike');
        return hits.map((h) => [h.sessionId, h.line, h.rank]);
      } finally {
        index.close();
      }
    };
    const one = await order('one.sqlite', homes[0] as string);
    const other = await order('other.sqlite', homes[1] as string);
    expect(one).toHaveLength(2);
    // the two hits rank alike: only their order can tell the indexes apart
    expect(one[0]?.[2]).toBe(one[1]?.[2]);
    expect(other).toEqual(one);
  });
});
