/** Writing a long output in pieces: batched into ~64 KiB writes, waiting for a stream to drain when it asks to. */
import type { TextOut } from '../io.js';

const BATCH_CHARS = 64 * 1024;

interface Drainable {
  once(event: 'drain', listener: () => void): unknown;
}

const canDrain = (out: TextOut): out is TextOut & Drainable => typeof (out as Partial<Drainable>).once === 'function';

/**
 * Write every piece to `out`, in order, never holding more than about one batch (plus one piece) in memory; each
 * batch through `map` first (a rewriting that keeps pieces apart, once per batch rather than per tiny piece).
 */
export async function writeChunks(
  out: TextOut,
  pieces: Iterable<string> | AsyncIterable<string>,
  map: (text: string) => string = (text) => text,
): Promise<void> {
  let batch: string[] = [];
  let size = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const text = map(batch.join(''));
    batch = [];
    size = 0;
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
