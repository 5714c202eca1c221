import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { safeJsonText } from '../commands/common.js';
import { writeChunks } from './write-chunks.js';

/** A Node stream keeping what it is given, as bytes. */
function sink(): { readonly out: Writable; readonly text: () => string } {
  const parts: Buffer[] = [];
  const out = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      parts.push(Buffer.from(chunk));
      setImmediate(done);
    },
  });
  return { out, text: () => Buffer.concat(parts).toString('utf8') };
}

describe('writeChunks of whole pieces', () => {
  it('writes to a Node stream the UTF-8 of the pieces joined, each escaped, in batches', async () => {
    const pieces = Array.from({ length: 30_000 }, (_, i) => `{"n": ${i}, "t": "é→😀\u0085\u007f x"},\n`);
    const { out, text } = sink();
    await writeChunks(out, pieces, { each: safeJsonText });
    expect(text()).toBe(safeJsonText(pieces.join('')));
    let kept = '';
    await writeChunks({ write: (s: string | Uint8Array) => (kept += s) }, pieces, { each: safeJsonText });
    expect(kept).toBe(text());
  });

  it('holds no buffer much larger than the bytes of a long piece', async () => {
    const long = `"${'x'.repeat(4 * 1024 * 1024)}"`;
    const held: number[] = [];
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        held.push(chunk.buffer.byteLength - chunk.length);
        done();
      },
    });
    await writeChunks(out, ['[', long, ']'], { each: safeJsonText });
    expect(held.length).toBeGreaterThan(0);
    // the buffer a batch is encoded into holds its bytes and at most a batch's worst case more, never 3× the long piece
    expect(Math.max(...held)).toBeLessThan(3 * 64 * 1024);
  });
});
