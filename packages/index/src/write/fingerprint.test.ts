import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FingerprintTee, fingerprintOf } from './fingerprint.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-fingerprint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A tee fed `bytes` in reads of the given sizes (cycled), as a reader reads a file from byte 0. */
function teeOf(bytes: Buffer, sizes: readonly number[]): FingerprintTee {
  const tee = new FingerprintTee();
  let position = 0;
  for (let i = 0; position < bytes.length; i++) {
    const n = Math.min(sizes[i % sizes.length] ?? 1, bytes.length - position);
    tee.take(bytes.subarray(position, position + n), position);
    position += n;
  }
  return tee;
}

describe('FingerprintTee', () => {
  const cases: [string, number, number[]][] = [
    ['a file shorter than the fingerprint', 10, [3]],
    ['a file of exactly its bytes', 64, [64]],
    ['one read', 5000, [1 << 20]],
    ['reads shorter than the fingerprint', 1000, [7, 1, 63, 200]],
    ['reads that end just past its bytes', 300, [129, 65, 1]],
  ];
  for (const [name, size, sizes] of cases) {
    it(`equals fingerprintOf for ${name}`, async () => {
      const bytes = randomBytes(size);
      const path = join(dir, `${size}-${sizes.join('-')}.jsonl`);
      writeFileSync(path, bytes);
      const tee = teeOf(bytes, sizes);
      expect(tee.fingerprint(size)).toBe(await fingerprintOf(path, size));
    });
  }

  it('gives nothing for an offset short of what was read, or after a read that skips', () => {
    const bytes = randomBytes(500);
    expect(teeOf(bytes, [100]).fingerprint(450)).toBeUndefined();
    const tee = teeOf(bytes.subarray(0, 100), [100]);
    tee.take(bytes.subarray(200, 300), 200);
    expect(tee.fingerprint(300)).toBeUndefined();
    expect(new FingerprintTee().fingerprint(0)).toBe('');
  });
});
