/**
 * Writing a command's output to a file (`export -o FILE`): the file is opened before anything is written, every
 * error of the stream is caught (never an unhandled 'error' event), and the write counts as done only once the file
 * is closed without one. A file this run created and could not finish is removed: nothing partial is left behind.
 */
import { createWriteStream, lstatSync, rmSync } from 'node:fs';
import { CannotWriteError } from '../errors.js';
import type { TextOut } from '../io.js';

/** A file being written: a `TextOut` for `writeChunks`, then `close()` (which throws if any write failed). */
export interface FileOutput extends TextOut {
  once(event: 'drain', listener: () => void): unknown;
  /** Flush and close; throws `CannotWriteError` if a write or the close failed (then `discard()` it). */
  close(): Promise<void>;
  /** Give up: close without waiting, and remove the file if this run created it. */
  discard(): void;
}

const exists = (path: string): boolean => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/** Open `path` for writing (created or truncated); throws `CannotWriteError` when it cannot be. */
export async function openFileOutput(path: string): Promise<FileOutput> {
  const created = !exists(path);
  const stream = createWriteStream(path);
  let failure: unknown;
  stream.on('error', (error) => {
    failure ??= error;
  });
  await new Promise<void>((resolve) => {
    stream.once('ready', resolve);
    stream.once('close', resolve);
  });
  const fail = (): never => {
    throw new CannotWriteError(path, failure);
  };
  const discard = () => {
    stream.destroy();
    // Only a file this run made: never one that was there before, nor a device such as /dev/full.
    if (created) rmSync(path, { force: true });
  };
  if (failure !== undefined) fail();
  return {
    write(text: string) {
      if (failure !== undefined) fail();
      return stream.write(text);
    },
    once(_event: 'drain', listener: () => void) {
      // A failed stream never drains: it closes.
      const done = () => {
        stream.off('drain', done);
        stream.off('close', done);
        listener();
      };
      stream.on('drain', done);
      stream.on('close', done);
      return this;
    },
    async close() {
      await new Promise<void>((resolve) => {
        stream.once('close', resolve);
        if (stream.closed) resolve();
        else stream.end();
      });
      if (failure !== undefined) fail();
    },
    discard,
  };
}
