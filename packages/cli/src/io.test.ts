import { describe, expect, it } from 'vitest';
import { type TextOut, writeStored } from './io.js';

const text = Buffer.from(Array.from({ length: 100 }, (_, i) => `line ${i}\n`).join(''));

/** Pieces of 64 bytes, in one buffer while `reuse()` says so (as a stored output gives them). */
const stored = {
  *pieces(reuse: () => boolean) {
    let out = Buffer.alloc(64);
    for (let at = 0; at < text.length; at += 64) {
      const n = text.copy(out, 0, at, at + 64);
      yield out.subarray(0, n);
      if (!reuse()) out = Buffer.alloc(64);
    }
  },
};

/**
 * A stream that writes a piece out at once (a copy), or queues it (keeps the piece itself, as a pipe that is full
 * does) when `queued` gives its `writableLength` after that write above 0.
 */
function keeping(queued: (written: number) => number): TextOut & { chunks: Uint8Array[]; writableLength: number } {
  const chunks: Uint8Array[] = [];
  return {
    chunks,
    writableLength: 0,
    write(piece: string | Uint8Array) {
      this.writableLength = queued(chunks.length + 1);
      chunks.push(this.writableLength > 0 ? (piece as Uint8Array) : Buffer.from(piece));
      return true;
    },
  };
}

describe('writeStored', () => {
  it('writes every piece whole, into a stream that queues some or none of them, or tells nothing', () => {
    for (const queued of [() => 0, () => 1, (n: number) => n % 2]) {
      const out = keeping(queued);
      writeStored(out, stored);
      expect(Buffer.concat(out.chunks).equals(text)).toBe(true);
    }
    // one that tells nothing may keep every piece
    const chunks: Uint8Array[] = [];
    writeStored({ write: (piece) => chunks.push(piece as Uint8Array) }, stored);
    expect(Buffer.concat(chunks).equals(text)).toBe(true);
  });

  it('makes a pipe blocking first, and stops once the stream is destroyed', () => {
    const calls: boolean[] = [];
    const out = Object.assign(
      keeping(() => 0),
      {
        _handle: { setBlocking: (on: boolean) => calls.push(on) },
        destroyed: false,
      },
    );
    const write = out.write.bind(out);
    out.write = (piece) => {
      write(piece);
      out.destroyed = out.chunks.length === 3;
      return true;
    };
    writeStored(out, stored);
    expect(calls).toEqual([true]);
    expect(Buffer.concat(out.chunks).equals(text.subarray(0, 3 * 64))).toBe(true);
  });
});
