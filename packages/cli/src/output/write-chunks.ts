/** Writing a long output in pieces: batched into ~64 KiB writes, waiting for a stream to drain when it asks to. */
import type { TextOut } from '../io.js';

const BATCH_CHARS = 64 * 1024;
/** Pieces longer than this are measured for the batch's buffer (`Buffer.byteLength`), not sized at their worst. */
const EXACT_FROM = 1024 * 1024;

interface Drainable {
  once(event: 'drain', listener: () => void): unknown;
}

const canDrain = (out: TextOut): out is TextOut & Drainable => typeof (out as Partial<Drainable>).once === 'function';

/** A Node stream (a file, a pipe, a terminal): it takes bytes as they are, where a test's stand-in keeps text. */
const takesBytes = (out: TextOut): boolean =>
  typeof (out as { writableHighWaterMark?: unknown }).writableHighWaterMark === 'number';

/**
 * How a batch of whole pieces (none splits a character, as JSON's tokens) is written: each piece through `each`,
 * then, to a Node stream, encoded as UTF-8 straight into one buffer (cheaper than joining them into one string that
 * the stream encodes after: a piece of non-Latin-1 text would widen the whole string).
 */
export interface WholePieces {
  readonly each: (piece: string) => string;
}

/**
 * Write every piece to `out`, in order, never holding more than about one batch (plus one piece) in memory.
 */
export async function writeChunks(
  out: TextOut,
  pieces: Iterable<string> | AsyncIterable<string>,
  whole?: WholePieces,
): Promise<void> {
  let batch: string[] = [];
  let size = 0;
  const bytes = whole !== undefined && takesBytes(out);
  const flush = async () => {
    if (batch.length === 0) return;
    const written = whole === undefined ? batch : batch.map(whole.each);
    batch = [];
    size = 0;
    let text: string | Uint8Array;
    if (bytes) {
      // Room for the worst case (3 bytes a UTF-16 unit), but a long piece (a tool's whole output) measured exactly:
      // three times its size would be held outside the heap, where no heap limit sees it.
      let most = 0;
      for (const piece of written) most += piece.length > EXACT_FROM ? Buffer.byteLength(piece) : piece.length * 3;
      const buffer = Buffer.allocUnsafeSlow(most);
      let at = 0;
      for (const piece of written) at += buffer.write(piece, at, 'utf8');
      text = buffer.subarray(0, at);
    } else {
      text = written.join('');
    }
    if (out.write(text) === false && canDrain(out)) {
      await new Promise<void>((resolve) => out.once('drain', resolve));
    }
  };
  for await (const piece of pieces) {
    batch.push(piece);
    size += piece.length;
    if (size >= BATCH_CHARS) await flush();
  }
  await flush();
}
