import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from '../index.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../../cli/samples/claude-home');

describe('search, one hit per session', () => {
  let dir: string;
  let index: AgentIndex;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-search-'));
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh([samples]);
  });
  afterAll(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("gives each session's best hit, in rank order, as the first hit per session of the full search", async () => {
    let compared = 0;
    for (const query of ['the', 'error', 'file', 'test', 'npm']) {
      const all = await index.search(query, { limit: 100_000 });
      const firsts = new Map<string, (typeof all)[number]>();
      for (const hit of all) if (!firsts.has(hit.sessionRef)) firsts.set(hit.sessionRef, hit);
      const best = await index.search(query, { limit: 100_000, onePerSession: true });
      expect(best.map((h) => h.sessionRef)).toEqual([...firsts.keys()]);
      // the same document: a hit of the same rank (ties may pick another document of equal rank)
      expect(best.map((h) => h.rank)).toEqual([...firsts.values()].map((h) => h.rank));
      for (const hit of best) expect(hit.snippet.length).toBeGreaterThan(0);
      // the limit counts sessions
      expect(await index.search(query, { limit: 2, onePerSession: true })).toEqual(best.slice(0, 2));
      if (firsts.size > 1 && all.length > firsts.size) compared++;
    }
    expect(compared).toBeGreaterThan(2);
  });
});
