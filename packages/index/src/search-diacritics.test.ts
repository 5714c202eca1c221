/**
 * Search folds the marks of Latin letters, two on one letter too: Vietnamese (`Việt`, `Nguyễn`, `tiếng`) was never
 * found without its marks while `cafe` found `café` (FTS5's unicode61 folds one mark by default; a review). The
 * team's search folds every mark already (index's `tokensOf`), and the snippets are cut by the same folding.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { openIndex } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-search-diacritics-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('finds Vietnamese words typed without their marks, with their marks, and a snippet marking them', async () => {
  const session = 'd1ac0000-0000-4000-8000-000000000001';
  const at = basesOf(session);
  const home = join(dir, 'home');
  writeLines(join(home, 'projects', '-tmp-viet', `${session}.jsonl`), [
    prompt(
      at('u1', null, 1),
      'Dịch tài liệu sang tiếng Việt cho văn phòng Hà Nội, gửi anh Nguyễn. Thêm một quán café.',
    ),
  ]);
  const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  try {
    await index.refresh([home]);
    for (const q of ['viet', 'tieng', '"ha noi"', 'nguyen', 'Việt', 'cafe']) {
      const hits = await index.search(q);
      expect(hits.length, q).toBe(1);
      expect(hits[0]?.snippet.includes('\u0001'), q).toBe(true); // the phrase marked
    }
  } finally {
    index.close();
  }
});
