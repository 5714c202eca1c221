/**
 * A document whose letters and digits are all ASCII is decided by the phrases' patterns, not tokenized: the decision
 * must be the tokenizer's, and any other document is left to the tokens.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { occurrencesOf, queryPhrases, toFtsQuery, tokensOf } from '@agentdash/index';
import { expect, it } from 'vitest';
import { asciiPatterns, heldByPatterns } from './search.js';

const samples = join(dirname(fileURLToPath(import.meta.url)), '../../../cli/samples/claude-home/projects');

/** What FTS5 matches: every phrase occurs in the text's tokens. */
const holds = (text: string, phrases: ReturnType<typeof queryPhrases>) => {
  const tokens = tokensOf(text);
  return phrases.every((p) => occurrencesOf(tokens, [p]).some((o) => o !== undefined));
};

it('a document is decided by the patterns as the tokens decide it, or left to them', () => {
  const texts = [
    'the file',
    'THE   File was read',
    'the_file and the-file',
    'thefile',
    'the files',
    // other characters than letters and digits only separate words: decided by the patterns
    '─── the → file ✓ … “the” file — 🙂 the file',
    'npm test → exit 1 │ error: the file',
    // letters past ASCII are folded into words ("thé" is the; "éthe" is not): left to the tokens
    'thé file',
    'éthe file',
    'the ﬁle',
    'the \u212Aelvin file',
    'the file 東京',
    'error ２０２６',
  ];
  for (const dir of readdirSync(samples)) {
    for (const file of readdirSync(join(samples, dir)).filter((f) => f.endsWith('.jsonl'))) {
      texts.push(...readFileSync(join(samples, dir, file), 'utf8').split('\n'));
    }
  }
  const queries = ['error', '"the file"', 'the file', 'fix*', '"npm run"*', 'read the', 'npm test', 'déjà', '東京'];
  let decided = 0;
  for (const query of queries) {
    const phrases = queryPhrases(toFtsQuery(query));
    for (const text of texts) {
      const held = heldByPatterns(text, asciiPatterns(phrases));
      if (held !== undefined) decided += 1;
      else if (/^[\p{ASCII}]*$/u.test(text) && /^[a-z0-9* "]*$/.test(query)) throw new Error(`undecided: ${text}`);
      expect([query, text, held ?? holds(text, phrases)]).toEqual([query, text, holds(text, phrases)]);
    }
  }
  expect(decided).toBeGreaterThan(texts.length * 5);
  // the texts with letters past ASCII are the tokens' to decide
  const phrases = queryPhrases(toFtsQuery('"the file"'));
  for (const text of ['thé file', 'éthe file', 'the ﬁle'])
    expect(heldByPatterns(text, asciiPatterns(phrases))).toBe(undefined);
  expect(heldByPatterns('─── the → file ✓', asciiPatterns(phrases))).toBe(true);
});
