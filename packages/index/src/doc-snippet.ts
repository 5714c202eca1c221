/**
 * A search hit's snippet. The FTS index is contentless (the text is stored nowhere in the index): a hit's text is
 * read back from its transcript record through the file's adapter (the file on disk, else the archive) and cut around
 * the query's words here.
 */
import {
  adapterForFile,
  type ByteSource,
  type DiscoveredFile,
  type OpenBytes,
  type TranscriptRecord,
} from '@agentdash/core';
import type { Archive } from './archive.js';
import { docPartsOf, indexedText } from './doc-parts.js';

/** Where a document's text is: its file, its record's line and byte offset, and its part within the record. */
export interface DocPlace {
  readonly file: DiscoveredFile;
  readonly line: number;
  readonly offset: number;
  readonly part: number;
}

/** Tokens shown around the best match (as FTS5's `snippet(…, 16)`). */
const SNIPPET_TOKENS = 16;

/** Bytes read at a time while the end of a document's line is not found yet (most lines are far shorter). */
const LINE_WINDOW = 64 * 1024;
/** Transcripts whose documents are read back at once (a file's own documents one after the other). */
const FILES_AT_ONCE = 8;

/** The bytes of a source up to the end of the line that starts at `offset` (bytes before it pass through). */
function oneLine(source: ByteSource, offset: number): ByteSource {
  let end: number | undefined;
  return {
    async read(buffer, at, length, position) {
      const limit = end === undefined ? Math.min(length, LINE_WINDOW) : Math.max(0, Math.min(length, end - position));
      if (limit === 0) return { bytesRead: 0 };
      const { bytesRead } = await source.read(buffer, at, limit, position);
      if (end === undefined && position + bytesRead > offset) {
        const from = Math.max(0, offset - position);
        const newline = buffer.subarray(at + from, at + bytesRead).indexOf(10);
        if (newline !== -1) {
          end = position + from + newline + 1;
          return { bytesRead: end - position };
        }
      }
      return { bytesRead };
    },
    close: () => source.close(),
  };
}

/** A source whose `close` leaves the underlying one open (its owner closes it). */
function keptOpen(source: ByteSource): ByteSource {
  return {
    read: (buffer, offset, length, position) => source.read(buffer, offset, length, position),
    close: async () => {},
  };
}

/** Reads documents' texts back from transcripts. */
export class DocTexts {
  constructor(private readonly archive: Archive) {}

  /**
   * The texts of these documents, in their order (undefined where a transcript no longer holds one). Several files
   * are read at once (each read waits on the disk or the thread pool). A file is opened once for all its documents,
   * read one after the other: an archived file's decompressed chunk serves its documents in that chunk.
   */
  async textsOf(places: readonly DocPlace[]): Promise<(string | undefined)[]> {
    const texts: (string | undefined)[] = new Array(places.length);
    const byFile = new Map<string, number[]>();
    places.forEach((place, i) => {
      const indexes = byFile.get(place.file.path);
      if (indexes === undefined) byFile.set(place.file.path, [i]);
      else indexes.push(i);
    });
    const queue = [...byFile.entries()];
    const worker = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const [path, indexes] = next;
        const shared = await this.archive.openBytes(path).catch(() => undefined);
        if (shared === undefined) continue;
        try {
          for (const i of indexes) texts[i] = await this.textOf(places[i] as DocPlace, shared);
        } finally {
          await shared.close();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(FILES_AT_ONCE, queue.length) }, worker));
    return texts;
  }

  /**
   * The indexed text of a document, or undefined when its transcript no longer holds it. `shared`: the transcript's
   * bytes, opened by the caller (and closed by it).
   */
  async textOf(place: DocPlace, shared?: ByteSource): Promise<string | undefined> {
    const adapter = adapterForFile(place.file);
    const records: TranscriptRecord[] = [];
    const open: OpenBytes = async (path) =>
      shared !== undefined && path === place.file.path ? keptOpen(shared) : this.archive.openBytes(path);
    // An append-only transcript is read from the record's line only; any other is read whole.
    const lineOnly = adapter.capabilities.appendOnly;
    try {
      await adapter.streamRecords(
        place.file,
        (event) => {
          if (
            event.kind === 'record' &&
            event.record.loc.line === place.line &&
            event.record.loc.offset === place.offset
          )
            records.push(event.record);
        },
        lineOnly
          ? {
              startOffset: place.offset,
              startLine: place.line,
              open: async (path) => oneLine(await open(path), place.offset),
            }
          : { open },
      );
    } catch {
      return undefined;
    }
    for (const record of records) {
      // The text as it was indexed (a listing's line numbers left out), so the snippet shows the words that matched.
      const part = docPartsOf(record)[place.part];
      if (part !== undefined) return indexedText(part);
    }
    return undefined;
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
