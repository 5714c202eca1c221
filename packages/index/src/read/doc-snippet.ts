/**
 * A search hit's snippet. The FTS index is contentless (the text is stored nowhere in the index): a hit's text is
 * read back from its transcript record through the file's adapter (the file on disk, else the archive) and cut around
 * the query's words here.
 */
import type { TranscriptRecord } from '@agentdash/core';
import type { Archive } from '../archive/archive.js';
import { docPartsAt, indexedText } from '../write/doc-parts.js';
import { type RecordPlace, RecordReader } from './record-reader.js';
import { occurrencesOf, queryPhrases, type Token, tokensOf, widthOf } from './snippet-tokens.js';

/** Where a document's text is: its record's place, and its number among the place's documents (`docPartsAt`). */
export interface DocPlace extends RecordPlace {
  readonly part: number;
}

/** Tokens shown around the best match (as FTS5's `snippet(…, 16)`), a CJK character counting half (`widthOf`). */
const SNIPPET_WIDTH = 16;
/** Tokens shown before a match, at least, unless the text starts sooner. */
const CONTEXT_WIDTH = 2;
/** Characters kept at each end of what stands between two tokens of a snippet, and of one token (`shortened`). */
const GAP_EACH = 12;
const WORD_EACH = 40;
/** Characters at most kept of what stands right before a snippet's first token (`cutSnippet`). */
const LEAD_MOST = 8;

/** The text as it was indexed (a listing's line numbers left out) of a document among its place's (`docPartsAt`). */
function textIn(records: readonly TranscriptRecord[], part: number): string | undefined {
  const found = docPartsAt(records)[part];
  return found === undefined ? undefined : indexedText(found);
}

/** Reads documents' texts back from transcripts. */
export class DocTexts {
  private readonly reader: RecordReader;
  constructor(archive: Archive) {
    this.reader = new RecordReader(archive.openBytes);
  }

  /** The texts of these documents, in their order (undefined where a transcript no longer holds one). */
  async textsOf(places: readonly DocPlace[]): Promise<(string | undefined)[]> {
    const records = await this.reader.recordsAt(places);
    const texts = places.map((place, i) => textIn(records[i] ?? [], place.part));
    // a text a later line of its file released (Codex's reasoning of an aborted turn): read again, to the file's end
    const missing = texts.flatMap((text, i) => (text === undefined ? [i] : []));
    if (missing.length === 0) return texts;
    const again = await this.reader.recordsAt(
      missing.map((i) => places[i] as DocPlace),
      true,
    );
    missing.forEach((i, k) => {
      texts[i] = textIn(again[k] ?? [], (places[i] as DocPlace).part);
    });
    return texts;
  }
}

/** The words of a query built by `toFtsQuery`: each quoted phrase's tokens, the last one a prefix when starred. */
export function queryTerms(ftsQuery: string): { readonly text: string; readonly prefix: boolean }[] {
  return queryPhrases(ftsQuery).flatMap(({ words, prefix }) =>
    words.map((text, i) => ({ text, prefix: prefix && i === words.length - 1 })),
  );
}

/**
 * The part of `text` around the query's phrases: about 16 tokens (or 32 CJK characters) where most distinct phrases
 * occur, each occurrence of a phrase between `start` and `end` marks (one mark around all of a CJK word's characters;
 * none on a word of a phrase that stands elsewhere without the rest), '…' where the text goes on.
 */
export function cutSnippet(text: string, ftsQuery: string, start = '\u0001', end = '\u0002'): string {
  const phrases = queryPhrases(ftsQuery);
  const tokens = tokensOf(text);
  if (tokens.length === 0) return '';
  const found = occurrencesOf(tokens, phrases);
  const width = (j: number) => widthOf(tokens[j] as Token);
  /** The end (exclusive) of the window that starts at token `from`. */
  const windowEnd = (from: number) => {
    let j = from;
    for (let w = 0; j < tokens.length && w + width(j) <= SNIPPET_WIDTH; j++) w += width(j);
    return j;
  };
  // The first start whose window reaches the text's end: a match near the end gets more context before it.
  let lastStart = tokens.length;
  for (let w = 0; lastStart > 0 && w + width(lastStart - 1) <= SNIPPET_WIDTH; lastStart--) w += width(lastStart - 1);
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i < tokens.length; i++) {
    if (found[i] === undefined) continue;
    // A window starting a few tokens before this match, so the match has some context.
    let from = i;
    for (let w = 0; from > 0 && w < CONTEXT_WIDTH; from--) w += width(from - 1);
    from = Math.min(from, lastStart);
    const seen = new Set<number>();
    for (let j = from, to = windowEnd(from); j < to; j++) {
      const occurrence = found[j];
      if (occurrence !== undefined) seen.add(occurrence.phrase);
    }
    if (seen.size > bestScore) {
      best = from;
      bestScore = seen.size;
    }
    if (bestScore === phrases.length) break;
  }
  const last = windowEnd(best) - 1;
  let out = best > 0 ? '…' : '';
  // The characters right before the first token that are no token's (a path's `/`, a tag's `<`, a `$`), up to the
  // nearest space and `LEAD_MOST` at most, never half a character: what the text shows there, not the token alone
  // (`/home/ann`, not `home/ann`). A snippet that starts past text it leaves out starts with '…'.
  const firstStart = (tokens[best] as Token).start;
  const prevEnd = best > 0 ? (tokens[best - 1] as Token).end : 0;
  let from = Math.max(prevEnd, firstStart - LEAD_MOST);
  const unit = text.charCodeAt(from);
  if (from > prevEnd && unit >= 0xdc00 && unit <= 0xdfff) from += 1;
  const before = text.slice(from, firstStart);
  let cursor = firstStart - (before.length - before.search(/\S*$/));
  if (best === 0 && text.slice(0, cursor).trim() !== '') out = '…';
  for (let j = best; j <= last; j++) {
    const first = tokens[j] as Token;
    const occurrence = found[j];
    // An occurrence is marked whole, up to the window's end.
    const through = tokens[occurrence === undefined ? j : Math.min(last, j + occurrence.length - 1)] as Token;
    const words = text.slice(first.start, through.end);
    const shown = shortened(words, WORD_EACH);
    out +=
      shortened(text.slice(cursor, first.start), GAP_EACH) +
      (occurrence === undefined ? shown : `${start}${shown}${end}`);
    cursor = through.end;
    if (occurrence !== undefined) j = Math.min(last, j + occurrence.length - 1);
  }
  if (last < tokens.length - 1) out += '…';
  else out += shortened(text.slice(cursor), GAP_EACH);
  return out;
}

/**
 * A piece of a snippet kept short: its first and last `each` characters around '…' (whole characters, never half a
 * surrogate pair). A snippet's window counts words, and a run of symbols between two (a rule of `─`, pytest's dots)
 * or one long word (base64) would otherwise make it tens of kilobytes.
 */
function shortened(piece: string, each: number): string {
  if (piece.length <= 2 * each + 1) return piece;
  const chars = Array.from(piece);
  return chars.length <= 2 * each + 1 ? piece : `${chars.slice(0, each).join('')}…${chars.slice(-each).join('')}`;
}
