import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { storedTs, storedUuid } from './stored-values.js';

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

/** The rule as first written: the text is dropped when it is the ISO form of `ms` (the fast reading replaced this). */
function byFormatting(ts: string | null | undefined, ms: number | null | undefined): string | null {
  if (ts === undefined || ts === null) return null;
  if (ms === undefined || ms === null || !Number.isInteger(ms) || ms < 0 || ms >= 253402300800000) return ts;
  return new Date(ms).toISOString() === ts ? null : ts;
}

describe('storedTs', () => {
  it('drops exactly the texts that are the ISO form of their time', () => {
    const cases: [string | null | undefined, number | null | undefined][] = [
      [undefined, 0],
      [null, 5],
      ['2026-01-02T03:04:05.678Z', Date.parse('2026-01-02T03:04:05.678Z')],
      ['2026-01-02T03:04:05.678Z', Date.parse('2026-01-02T03:04:05.678Z') + 1],
      ['2026-01-02T03:04:05.678Z', null],
      ['2026-01-02T03:04:05Z', Date.parse('2026-01-02T03:04:05Z')],
      ['2026-01-02T03:04:05.678+00:00', Date.parse('2026-01-02T03:04:05.678+00:00')],
      // `Date.parse` rolls these over to another day or hour: their time's ISO form is another text.
      ['2023-02-29T00:00:00.000Z', Date.parse('2023-02-29T00:00:00.000Z')],
      ['2023-04-31T10:00:00.000Z', Date.parse('2023-04-31T10:00:00.000Z')],
      ['2023-01-01T24:00:00.000Z', Date.parse('2023-01-01T24:00:00.000Z')],
      ['2024-02-29T23:59:59.999Z', Date.parse('2024-02-29T23:59:59.999Z')],
      ['1970-01-01T00:00:00.000Z', 0],
      ['9999-12-31T23:59:59.999Z', 253402300799999],
      ['2026-01-02t03:04:05.678Z', Date.parse('2026-01-02T03:04:05.678Z')],
      ['2026-01-02T03:04:05.678Z', 1.5],
      ['2026-01-02T03:04:05.678Z', -1],
    ];
    for (const [ts, ms] of cases) expect(storedTs(ts, ms), `${ts} ${ms}`).toBe(byFormatting(ts, ms));
  });

  it('reads exactly what formatting reads, over 20,000 times and their texts with one character changed', () => {
    let seed = 11;
    const random = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const alphabet = '0123456789-T:.Z+ 9';
    let dropped = 0;
    for (let i = 0; i < 20_000; i++) {
      const ms =
        random(2 ** 30) * 1000 + random(1000) + (random(2) === 0 ? 1_600_000_000_000 : random(2 ** 20) * 2 ** 22);
      let ts = new Date(ms).toISOString();
      if (random(2) === 0) {
        const at = random(ts.length);
        ts = `${ts.slice(0, at)}${alphabet[random(alphabet.length)]}${ts.slice(at + 1)}`;
      }
      const parsed = Date.parse(ts);
      for (const time of [ms, Number.isNaN(parsed) ? ms : parsed]) {
        const stored = storedTs(ts, time);
        expect(stored, `${ts} ${time}`).toBe(byFormatting(ts, time));
        if (stored === null) dropped += 1;
      }
    }
    expect(dropped).toBeGreaterThan(10_000);
  });
});
