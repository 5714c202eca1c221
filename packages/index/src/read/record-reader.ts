/**
 * Records read back from their transcripts (the file on disk, else the archive) at the place a row stored: the
 * index keeps where a record is, not what it says. Search snippets (doc-snippet.ts) and the tool inputs and results
 * of calls (call-payloads.ts) are read this way.
 */
import {
  type AgentAdapter,
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

/**
 * A record read back, and the subagent's record it holds a copy of (core's `embeddedRecordOf`) right after it: where
 * the index took the copy as its subagent's thread, its calls, results and documents are stored at the holder's place.
 */
function withCopy(adapter: AgentAdapter, record: TranscriptRecord, out: TranscriptRecord[]): void {
  out.push(record);
  const copy = record.kind === 'progress' ? adapter.embeddedRecordOf?.(record) : undefined;
  if (copy !== undefined) out.push(copy.record);
}

/** A place's key among its file's records. */
const keyOf = (line: number, offset: number | undefined) => `${line}:${offset ?? ''}`;

/** Reads records back from transcripts. */
export class RecordReader {
  /** `open`: a transcript's bytes (the archive's `openBytes`: the file on disk, else its archived bytes). */
  constructor(private readonly open: OpenBytes) {}

  /**
   * The records at these places, in their order (none where a transcript no longer holds one, or cannot be read).
   * Several files are read at once (each read waits on the disk or the thread pool). A file is opened once for all
   * its places, and each of its places is read once however often it is asked for: where its lines stand alone
   * (Claude Code) each from its offset, in file order (an archived file keeps one decompressed chunk at a time);
   * else the file is read once up to its last place (Codex replays a file from its start to read any line of it, a
   * Gemini file is one document); `whole`: read such a file to its end, for a record a later line releases (Codex's
   * reasoning events of a turn aborted before its response item).
   */
  async recordsAt(places: readonly RecordPlace[], whole = false): Promise<TranscriptRecord[][]> {
    const found: TranscriptRecord[][] = places.map(() => []);
    const byFile = new Map<string, number[]>();
    places.forEach((place, i) => {
      const indexes = byFile.get(place.file.path);
      if (indexes === undefined) byFile.set(place.file.path, [i]);
      else indexes.push(i);
    });
    const queue = [...byFile.values()];
    const worker = async () => {
      for (let indexes = queue.shift(); indexes !== undefined; indexes = queue.shift()) {
        const mine = indexes.map((i) => places[i] as RecordPlace);
        const first = mine[0] as RecordPlace;
        const shared = await this.open(first.file.path).catch(() => undefined);
        if (shared === undefined) continue;
        try {
          if (adapterForFile(first.file).capabilities.linesStandAlone) {
            const byPlace = new Map<string, number[]>();
            for (const i of indexes) {
              const { line, offset } = places[i] as RecordPlace;
              const same = byPlace.get(keyOf(line, offset));
              if (same === undefined) byPlace.set(keyOf(line, offset), [i]);
              else same.push(i);
            }
            const inFileOrder = [...byPlace.values()].sort(
              (a, b) => (places[a[0] as number] as RecordPlace).offset - (places[b[0] as number] as RecordPlace).offset,
            );
            for (const same of inFileOrder) {
              const records = await this.lineRecords(places[same[0] as number] as RecordPlace, shared);
              for (const i of same) found[i] = records;
            }
          } else {
            const read = await this.onePass(mine, shared, whole);
            for (const i of indexes) {
              const place = places[i] as RecordPlace;
              found[i] = read.get(keyOf(place.line, place.offset)) ?? [];
            }
          }
        } finally {
          await shared.close();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(FILES_AT_ONCE, queue.length) }, worker));
    return found;
  }

  /**
   * The records at one place of a file whose lines stand alone, read from its line only. `shared`: the transcript's
   * bytes, opened by the caller (and closed by it).
   */
  private async lineRecords(place: RecordPlace, shared: ByteSource): Promise<TranscriptRecord[]> {
    const adapter = adapterForFile(place.file);
    const records: TranscriptRecord[] = [];
    const open: OpenBytes = async (path) => (path === place.file.path ? keptOpen(shared) : this.open(path));
    try {
      await adapter.streamRecords(
        place.file,
        (event) => {
          if (
            event.kind === 'record' &&
            event.record.loc.line === place.line &&
            event.record.loc.offset === place.offset
          )
            withCopy(adapter, event.record, records);
        },
        {
          startOffset: place.offset,
          startLine: place.line,
          open: async (path) => oneLine(await open(path), place.offset),
        },
      );
    } catch {
      return [];
    }
    return records;
  }

  /**
   * The records at these places of one file, read in one pass from its start (up to the end of the last place's line
   * when the file is append-only), by place (`keyOf`). `shared`: the file's bytes, opened by the caller.
   */
  private async onePass(
    places: readonly RecordPlace[],
    shared: ByteSource,
    whole: boolean,
  ): Promise<Map<string, TranscriptRecord[]>> {
    const file = (places[0] as RecordPlace).file;
    const adapter = adapterForFile(file);
    const wanted = new Set(places.map((p) => keyOf(p.line, p.offset)));
    const last = Math.max(...places.map((p) => p.offset));
    const out = new Map<string, TranscriptRecord[]>();
    const open: OpenBytes = async (path) => {
      if (path !== file.path) return this.open(path);
      return adapter.capabilities.appendOnly && !whole ? oneLine(keptOpen(shared), last) : keptOpen(shared);
    };
    try {
      await adapter.streamRecords(
        file,
        (event) => {
          if (event.kind !== 'record') return;
          const key = keyOf(event.record.loc.line, event.record.loc.offset);
          if (!wanted.has(key)) return;
          const records = out.get(key) ?? [];
          if (records.length === 0) out.set(key, records);
          withCopy(adapter, event.record, records);
        },
        { open },
      );
    } catch {
      return new Map();
    }
    return out;
  }
}
