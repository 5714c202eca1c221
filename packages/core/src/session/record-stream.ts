import { adapterForFile } from '../agents/adapters.js';
import type { DiscoveredFile } from '../io/discover.js';
import { type ByteSource, type OpenBytes, openFileBytes } from '../io/read-lines.js';
import type { RecordEvent } from '../model/raw.js';
import type { TranscriptRecord } from '../model/record.js';

/**
 * The read size for a part of a file (a window: a thread's records among others'): a window ends up to about two
 * reads past its last record, so a file of many small windows read at the default 1 MiB would be read about once
 * per window.
 */
export const WINDOW_CHUNK_BYTES = 64 * 1024;

/**
 * A file's records and issues as its adapter streams them, pulled one at a time: the next bytes are read only once
 * the records of the bytes before are taken, so a caller that writes as it reads holds about one read's records
 * (an adapter that reads its file whole, such as Gemini's `.json`, hands them all at once). `from`: the line to start
 * at (`startOffset`: an adapter whose lines do not stand alone may still read from the file's start). A caller that
 * stops early ends the read: no byte after is read. A read goes on as soon as the records before are taken, before the
 * caller decides whether to stop, so a caller reading a part of a file (a window) sets `chunkBytes` small
 * (`WINDOW_CHUNK_BYTES`): it reads at most about two reads past the part it takes.
 */
export async function* pullRecords(
  file: DiscoveredFile,
  open?: OpenBytes,
  from?: { readonly offset: number; readonly line: number },
  chunkBytes?: number,
): AsyncGenerator<RecordEvent, void> {
  const queue: RecordEvent[] = [];
  let wake: (() => void) | undefined;
  let room: (() => void) | undefined;
  let done = false;
  let abandoned = false;
  let failure: { readonly error: unknown } | undefined;
  const opener = open ?? openFileBytes;
  const gated: OpenBytes = async (path) => {
    const source: ByteSource = await opener(path);
    return {
      read: async (buffer, offset, length, position) => {
        // Wait for the records of the bytes read before to be taken; a read for a caller that stopped is the end.
        if (queue.length > 0 && !abandoned) await new Promise<void>((resolve) => (room = resolve));
        return abandoned ? { bytesRead: 0 } : source.read(buffer, offset, length, position);
      },
      close: () => source.close(),
    };
  };
  const poke = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const start = {
    ...(from ? { startOffset: from.offset, startLine: from.line } : {}),
    ...(chunkBytes ? { chunkBytes } : {}),
  };
  const reading = adapterForFile(file)
    .streamRecords(
      file,
      (event) => {
        if (abandoned) return;
        queue.push(event);
        poke();
      },
      { open: gated, ...start },
    )
    .then(
      () => undefined,
      (error: unknown) => {
        failure = { error };
      },
    )
    .finally(() => {
      done = true;
      poke();
    });
  try {
    let index = 0;
    for (;;) {
      if (index < queue.length) {
        yield queue[index++] as RecordEvent;
        continue;
      }
      queue.length = 0;
      index = 0;
      const r = room;
      room = undefined;
      r?.();
      if (done) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (queue.length > 0 || done) poke();
      });
    }
    if (failure) throw failure.error;
  } finally {
    // A consumer that stops early: let the reader run to its end (each read then returns nothing).
    abandoned = true;
    queue.length = 0;
    room?.();
    await reading;
  }
}

/** A kept record of a file; `copyOf`: a subagent's record copied there, the thread of that agent id. */
export interface Kept {
  readonly record: TranscriptRecord;
  readonly ordinal: number;
  readonly copyOf?: string;
}
