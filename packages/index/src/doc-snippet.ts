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
import { occurrencesOf, queryPhrases, type Token, tokensOf, widthOf } from './snippet-tokens.js';

/** Where a document's text is: its file, its record's line and byte offset, and its part within the record. */
export interface DocPlace {
  readonly file: DiscoveredFile;
  readonly line: number;
  readonly offset: number;
  readonly part: number;
}

/** Tokens shown around the best match (as FTS5's `snippet(…, 16)`), a CJK character counting half (`widthOf`). */
const SNIPPET_WIDTH = 16;
/** Tokens shown before a match, at least, unless the text starts sooner. */
const CONTEXT_WIDTH = 2;

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
  let cursor = (tokens[best] as Token).start;
  for (let j = best; j <= last; j++) {
    const first = tokens[j] as Token;
    const occurrence = found[j];
    // An occurrence is marked whole, up to the window's end.
    const through = tokens[occurrence === undefined ? j : Math.min(last, j + occurrence.length - 1)] as Token;
    const words = text.slice(first.start, through.end);
    out += text.slice(cursor, first.start) + (occurrence === undefined ? words : `${start}${words}${end}`);
    cursor = through.end;
    if (occurrence !== undefined) j = Math.min(last, j + occurrence.length - 1);
  }
  if (last < tokens.length - 1) out += '…';
  else out += text.slice(cursor);
  return out;
}
