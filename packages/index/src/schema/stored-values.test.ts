import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { storedUuid } from './stored-values.js';

/** The rule as a pattern says it (the one-pass reading replaced this). */
function byPattern(uuid: string): string | Buffer {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uuid)
    ? Buffer.from(uuid.replace(/-/g, ''), 'hex')
    : uuid;
}

describe('storedUuid', () => {
  it('keeps the 16 bytes of a canonical uuid, and any other text as written', () => {
    expect(storedUuid(null)).toBeNull();
    expect(storedUuid(undefined)).toBeNull();
    expect(storedUuid('0123abcd-4567-89ef-0a1b-2c3d4e5f6789')).toEqual(
      Buffer.from('0123abcd456789ef0a1b2c3d4e5f6789', 'hex'),
    );
    for (const text of [
      '',
      'msg-1',
      '0123ABCD-4567-89ef-0a1b-2c3d4e5f6789',
      '0123abcd-4567-89ef-0a1b-2c3d4e5f6789\n',
    ]) {
      expect(storedUuid(text)).toBe(text);
    }
  });

  it('reads exactly what the pattern reads, over 20,000 uuids with one character changed', () => {
    let seed = 7;
    // mulberry32: a fixed sequence, so a failure can be run again.
    const random = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const alphabet = '0123456789abcdefABCDEFgz-/:@`G \u0660';
    let canonical = 0;
    for (let i = 0; i < 20_000; i++) {
      let uuid = randomUUID();
      const at = random(37);
      const c = alphabet[random(alphabet.length)] ?? '';
      const change = random(3);
      if (change === 0) uuid = uuid.slice(0, at) + c + uuid.slice(at + 1);
      else if (change === 1) uuid = uuid.slice(0, at) + c + uuid.slice(at);
      const expected = byPattern(uuid);
      if (typeof expected !== 'string') canonical += 1;
      expect(storedUuid(uuid), uuid).toEqual(expected);
    }
    expect(canonical).toBeGreaterThan(5_000);
    expect(canonical).toBeLessThan(19_000);
  });
});
