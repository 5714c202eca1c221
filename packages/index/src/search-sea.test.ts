/**
 * Search finds a word of Thai, Lao, Khmer or Myanmar inside a sentence: those scripts write no spaces between words,
 * so a sentence was one token of the index and `ฐานข้อมูล` (database) inside `ฐานข้อมูลเชื่อมต่อไม่ได้` was never
 * found, only the whole run or a prefix of it (a review). Their runs are cut into words by ICU's dictionaries, and a
 * word keeps its vowel signs and tone marks (FTS5 split words at them: a word found another of the same consonants).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { openIndex } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-search-sea-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('finds a Thai, a Lao and a Khmer word where it stands in a sentence, its snippet marked', async () => {
  const session = '5ea00000-0000-4000-8000-000000000001';
  const at = basesOf(session);
  const home = join(dir, 'home');
  writeLines(join(home, 'projects', '-tmp-sea', `${session}.jsonl`), [
    prompt(at('u1', null, 1), 'ฐานข้อมูลเชื่อมต่อไม่ได้ ช่วยตรวจสอบไฟล์การตั้งค่าหน่อย · ພາສາລາວ · ខ្ញុំស្រឡាញ់ · ဒေတာဘေ့စ်'),
  ]);
  const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  try {
    await index.refresh([home]);
    for (const q of ['ฐานข้อมูล', 'ไฟล์', 'ตรวจสอบ', 'ລາວ', 'ស្រឡាញ់', 'ဒေတာ', 'ฐานข้อมูลเชื่อมต่อไม่ได้']) {
      const hits = await index.search(q);
      expect(hits.length, q).toBe(1);
      expect(hits[0]?.snippet.includes('\u0001'), q).toBe(true); // the word marked
    }
    // a word that is not in it is not found, nor one that differs by a vowel sign or tone mark (FTS5 split words at
    // their marks: ไม้ (wood) found ไม่ (not), the consonants of a Myanmar word found it)
    for (const q of ['แมว', 'ไม้', 'ฐานขอมล', 'ဒ တ']) expect((await index.search(q)).length, q).toBe(0);
  } finally {
    index.close();
  }
});
