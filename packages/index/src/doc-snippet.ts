/**
 * A search hit's snippet. The FTS index is contentless (the text is stored nowhere in the index): a hit's text is
 * read back from its transcript line (the file on disk, else the archive) and cut around the query's words here.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { decodeLine } from '@agentdash/core';
import type { Archive, ArchiveSource } from './archive.js';
import { docPartsOf } from './doc-parts.js';

/** Where a document's text is: its record's line and byte offset, and its part within the record. */
export interface DocPlace {
  readonly path: string;
  readonly line: number;
  readonly offset: number;
  readonly part: number;
}

/** Tokens shown around the best match (as FTS5's `snippet(…, 16)`). */
const SNIPPET_TOKENS = 16;
/** A line longer than this is not read back for a snippet. */
const MAX_LINE_BYTES = 256 * 1024 * 1024;
const READ_BYTES = 1024 * 1024;

type ReadAt = (buffer: Buffer, position: number) => number;

/** The line starting at `offset` (without its line break), or undefined when it cannot be read. */
function lineAt(read: ReadAt, offset: number): string | undefined {
  const parts: Buffer[] = [];
  let total = 0;
  let position = offset;
  for (;;) {
    const buffer = Buffer.allocUnsafe(total === 0 ? 64 * 1024 : READ_BYTES);
    const n = read(buffer, position);
    if (n <= 0) break;
    const newline = buffer.subarray(0, n).indexOf(10);
    const end = newline === -1 ? n : newline;
    parts.push(buffer.subarray(0, end));
    total += end;
    if (newline !== -1) break;
    position += n;
    if (total > MAX_LINE_BYTES) return undefined;
  }
  if (total === 0) return undefined;
  let bytes = Buffer.concat(parts, total);
  if (offset === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  if (bytes[bytes.length - 1] === 13) bytes = bytes.subarray(0, -1);
  return new TextDecoder().decode(bytes);
}

/** Reads documents' texts back from transcripts, keeping archive sources open for one search. */
export class DocTexts {
  private readonly sources = new Map<string, ArchiveSource>();
  constructor(private readonly archive: Archive) {}

  /** The indexed text of a document, or undefined when its transcript no longer holds it. */
  textOf(place: DocPlace): string | undefined {
    const line = this.lineOf(place);
    if (line === undefined) return undefined;
    const decoded = decodeLine(line, { file: place.path, line: place.line, offset: place.offset });
    return decoded.ok ? docPartsOf(decoded.value)[place.part]?.text : undefined;
  }

  private lineOf(place: DocPlace): string | undefined {
    if (existsSync(place.path)) {
      try {
        const fd = openSync(place.path, 'r');
        try {
          return lineAt((buffer, position) => readSync(fd, buffer, 0, buffer.length, position), place.offset);
        } finally {
          closeSync(fd);
        }
      } catch {
        // Unreadable now: the archive may still hold it.
      }
    }
    let source = this.sources.get(place.path);
    if (source === undefined) {
      source = this.archive.source(place.path);
      this.sources.set(place.path, source);
    }
    const archived = source;
    return lineAt((buffer, position) => archived.readSync(buffer, 0, buffer.length, position), place.offset);
  }
}

/** The words of a query built by `toFtsQuery`: each quoted phrase's tokens, the last one a prefix when starred. */
export function queryTerms(ftsQuery: string): { readonly text: string; readonly prefix: boolean }[] {
  const terms: { text: string; prefix: boolean }[] = [];
  for (const match of ftsQuery.matchAll(/"((?:[^"]|"")*)"(\*?)/g)) {
    const tokens = tokensOf((match[1] ?? '').replace(/""/g, '"')).map((t) => t.folded);
    tokens.forEach((text, i) => {
      terms.push({ text, prefix: match[2] === '*' && i === tokens.length - 1 });
    });
  }
  return terms;
}

interface Token {
  readonly start: number;
  readonly end: number;
  readonly folded: string;
}

/** Tokens as FTS5's unicode61 tokenizer sees them: runs of letters and digits, case and diacritics folded. */
function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}\p{Co}\p{M}]+/gu)) {
    const folded = match[0].normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
    if (folded !== '') tokens.push({ start: match.index, end: match.index + match[0].length, folded });
  }
  return tokens;
}

/**
 * The part of `text` around the query's words: about 16 tokens where most distinct terms occur, matches between
 * `start` and `end` marks, '…' where the text goes on.
 */
export function cutSnippet(text: string, ftsQuery: string, start = '\u0001', end = '\u0002'): string {
  const terms = queryTerms(ftsQuery);
  const tokens = tokensOf(text);
  if (tokens.length === 0) return '';
  const termOf = (token: Token) =>
    terms.findIndex((t) => (t.prefix ? token.folded.startsWith(t.text) : token.folded === t.text));
  const hits = tokens.map(termOf);
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i < tokens.length; i++) {
    if (hits[i] === -1) continue;
    // A window starting a few tokens before this match, so the match has some context.
    const from = Math.max(0, Math.min(i - 2, tokens.length - SNIPPET_TOKENS));
    const seen = new Set<number>();
    for (let j = from; j < Math.min(tokens.length, from + SNIPPET_TOKENS); j++) {
      const term = hits[j] as number;
      if (term !== -1) seen.add(term);
    }
    if (seen.size > bestScore) {
      best = from;
      bestScore = seen.size;
    }
    if (bestScore === terms.length) break;
  }
  const last = Math.min(tokens.length, best + SNIPPET_TOKENS) - 1;
  let out = best > 0 ? '…' : '';
  let cursor = (tokens[best] as Token).start;
  for (let j = best; j <= last; j++) {
    const token = tokens[j] as Token;
    out += text.slice(cursor, token.start);
    const word = text.slice(token.start, token.end);
    out += hits[j] === -1 ? word : `${start}${word}${end}`;
    cursor = token.end;
  }
  if (last < tokens.length - 1) out += '…';
  else out += text.slice(cursor);
  return out;
}
