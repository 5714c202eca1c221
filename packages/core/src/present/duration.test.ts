import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;

describe('formatDuration', () => {
  it('writes each range in its unit', () => {
    expect(formatDuration(340)).toBe('340 ms');
    expect(formatDuration(2300)).toBe('2.3 s');
    expect(formatDuration(42_400)).toBe('42 s');
    expect(formatDuration(65 * S)).toBe('1 min 5 s');
    expect(formatDuration(18 * H + 14 * M)).toBe('18 h 14 min');
    expect(formatDuration(105 * H + 7 * M)).toBe('4 d 9 h');
    expect(formatDuration(2 * H)).toBe('2 h');
  });

  it('unknown or negative durations read as a dash', () => {
    expect([formatDuration(undefined), formatDuration(null), formatDuration(Number.NaN), formatDuration(-1)]).toEqual([
      '—',
      '—',
      '—',
      '—',
    ]);
  });

  it('never writes 60 of a lower unit, nor 1000 ms, nor 10.0 s', () => {
    const bad = /(^|\s)60 (s|min)\b|^1000 ms|^10\.0 s|^60 s/;
    const offenders: string[] = [];
    for (let ms = 0; ms < 50 * H; ms += ms < 2 * M ? 7 : ms < 3 * H ? 493 : 29_311) {
      const text = formatDuration(ms);
      if (bad.test(text)) offenders.push(`${ms} → ${text}`);
    }
    for (const edge of [999.6, 9_960, 59_600, 26 * M + 59_700, 59 * M + 59_600, H + 59 * M + 40 * S, 47 * H + 45 * M]) {
      const text = formatDuration(edge);
      if (bad.test(text)) offenders.push(`${edge} → ${text}`);
    }
    expect(offenders).toEqual([]);
  });

  it('rounds to the nearest shown unit (the CLI and the web round alike)', () => {
    expect(formatDuration(26 * M + 59_700)).toBe('27 min');
    expect(formatDuration(18 * H + 13 * M + 40 * S)).toBe('18 h 14 min');
    expect(formatDuration(999.6)).toBe('1.0 s');
    expect(formatDuration(59_600)).toBe('1 min');
  });
});
