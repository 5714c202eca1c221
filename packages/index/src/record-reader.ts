/**
 * Records read back from their transcripts (the file on disk, else the archive) at the place a row stored: the
 * index keeps where a record is, not what it says. Search snippets (doc-snippet.ts) and the tool inputs and results
 * of calls (call-payloads.ts) are read this way.
 */
import {
  adapterForFile,
  type ByteSource,
  type DiscoveredFile,
  type OpenBytes,
  type TranscriptRecord,
} from '@agentdash/core';

/** Where a record is: its file, its line and the byte offset where the record starts. */
export interface RecordPlace {
  readonly file: DiscoveredFile;
  readonly line: number;
  readonly offset: number;
}

/** Bytes read at a time while the end of a record's line is not found yet (most lines are far shorter). */
const LINE_WINDOW = 64 * 1024;
/** Transcripts read back at once (a file's own places one after the other). */
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

/** Reads records back from transcripts. */
export class RecordReader {
  /** `open`: a transcript's bytes (the archive's `openBytes`: the file on disk, else its archived bytes). */
  constructor(private readonly open: OpenBytes) {}

  /**
   * The records at these places, in their order (none where a transcript no longer holds one, or cannot be read).
   * Several files are read at once (each read waits on the disk or the thread pool). A file is opened once for all
   * its places, read one after the other: an archived file's decompressed chunk serves the places in that chunk.
   */
  async recordsAt(places: readonly RecordPlace[]): Promise<TranscriptRecord[][]> {
    const found: TranscriptRecord[][] = places.map(() => []);
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
        const shared = await this.open(path).catch(() => undefined);
        if (shared === undefined) continue;
        try {
          for (const i of indexes) found[i] = await this.recordsAtOne(places[i] as RecordPlace, shared);
        } finally {
          await shared.close();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(FILES_AT_ONCE, queue.length) }, worker));
    return found;
  }

  /**
   * The records at one place (several when records are glued on one line at one offset; none when the transcript
   * no longer holds one). `shared`: the transcript's bytes, opened by the caller (and closed by it).
   */
  async recordsAtOne(place: RecordPlace, shared?: ByteSource): Promise<TranscriptRecord[]> {
    const adapter = adapterForFile(place.file);
    const records: TranscriptRecord[] = [];
    const open: OpenBytes = async (path) =>
      shared !== undefined && path === place.file.path ? keptOpen(shared) : this.open(path);
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
      return [];
    }
    return records;
  }
}
