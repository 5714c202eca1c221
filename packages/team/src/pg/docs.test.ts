/** The tokens and words team search reads are the tokenizer's, on the ASCII fast path too. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tokensOf } from '@agentdash/index';
import { expect, it } from 'vitest';
import { fastTokensOf, wordsOf } from './docs.js';

const reference = (text: string) => [...new Set(tokensOf(text).map((t) => t.folded))].filter((w) => w.length <= 500);

const samples = join(dirname(fileURLToPath(import.meta.url)), '../../../cli/samples/claude-home/projects');

it('fastTokensOf is tokensOf, and wordsOf its distinct folded words, ASCII or not', () => {
  const texts = [
    'npm test → exit 1',
    'Error: ENOENT, open "/tmp/A_b-c.txt" at line 42; x=0x1F',
    'CAFÉ déjà vu ﬁle ２０２６ 東京タワー 한국어',
    `${'a'.repeat(501)} short`,
    'tabs\tand\nnew lines\r\n__init__ snake_case kebab-case CamelCase',
  ];
  for (const dir of readdirSync(samples)) {
    for (const file of readdirSync(join(samples, dir)).filter((f) => f.endsWith('.jsonl'))) {
      texts.push(...readFileSync(join(samples, dir, file), 'utf8').split('\n'));
    }
  }
  expect(texts.length).toBeGreaterThan(50);
  for (const text of texts) {
    expect([text, fastTokensOf(text)]).toEqual([text, tokensOf(text)]);
    expect([text, wordsOf(text).sort()]).toEqual([text, reference(text).sort()]);
  }
});
