/**
 * A text's tokens as the full-text index has them, and where a query's phrases occur among them: what a snippet is
 * cut from and marks (doc-snippet.ts).
 */
import { cjkPieces, mayHoldSea } from '../write/cjk.js';

export interface Token {
  readonly start: number;
  readonly end: number;
  readonly folded: string;
  /** A CJK character (cjk.ts). */
  readonly cjk: boolean;
}

/** A character from which on a word may hold a CJK one (Hangul Jamo on; Latin, Greek, Cyrillic… are below). */
const MAYBE_CJK = /[\u1100-\u{10ffff}]/u;

/**
 * Tokens as FTS5's unicode61 tokenizer sees them in the text `spaceCjk` gives it: runs of letters and digits, case
 * and diacritics folded, each CJK character a token of its own (compared as it is: unicode61 folds none of them).
 */
export function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}\p{Co}\p{M}]+/gu)) {
    const split = MAYBE_CJK.test(match[0]) || mayHoldSea(match[0]);
    const pieces = split ? cjkPieces(match[0]) : [{ text: match[0], index: 0, cjk: false }];
    for (const piece of pieces) {
      const folded = piece.cjk ? piece.text : piece.text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
      const start = match.index + piece.index;
      if (folded !== '') tokens.push({ start, end: start + piece.text.length, folded, cjk: piece.cjk });
    }
  }
  return tokens;
}

/** A phrase of a query: its tokens, folded, in order; the last one a prefix when starred. */
export interface QueryPhrase {
  readonly words: readonly string[];
  readonly prefix: boolean;
}

/** The phrases of a query built by `toFtsQuery` (a single word is a phrase of one). */
export function queryPhrases(ftsQuery: string): QueryPhrase[] {
  const phrases: QueryPhrase[] = [];
  for (const match of ftsQuery.matchAll(/"((?:[^"]|"")*)"(\*?)/g)) {
    const words = tokensOf((match[1] ?? '').replace(/""/g, '"')).map((t) => t.folded);
    if (words.length > 0) phrases.push({ words, prefix: match[2] === '*' });
  }
  return phrases;
}

/** A place where a phrase occurs: its first token and how many it spans. */
export interface Occurrence {
  readonly phrase: number;
  readonly length: number;
}

/** Which phrase occurs from each token on (the first that does), or undefined. */
export function occurrencesOf(tokens: readonly Token[], phrases: readonly QueryPhrase[]): (Occurrence | undefined)[] {
  const matches = (token: Token | undefined, word: string, prefix: boolean) =>
    token !== undefined && (prefix ? token.folded.startsWith(word) : token.folded === word);
  return tokens.map((_, i) => {
    const phrase = phrases.findIndex(({ words, prefix }) =>
      words.every((word, k) => matches(tokens[i + k], word, prefix && k === words.length - 1)),
    );
    return phrase === -1 ? undefined : { phrase, length: (phrases[phrase] as QueryPhrase).words.length };
  });
}

/**
 * How much of a snippet's length a token takes: a CJK character half a word (most Chinese and Japanese words are two
 * or three characters), so that a snippet shows about as much text in any script.
 */
export function widthOf(token: Token): number {
  return token.cjk ? 0.5 : 1;
}
