import { describe, expect, it } from 'vitest';
import { cjkPieces, mayHoldCjk, spaceCjk } from './cjk.js';

describe('spaceCjk', () => {
  it('puts each Han, kana and Hangul character between spaces, and leaves other text as it is', () => {
    expect(spaceCjk('我们的数据库 error')).toBe(' 我 们 的 数 据 库  error');
    expect(spaceCjk('データベース')).toBe(' デ ー タ ベ ー ス ');
    expect(spaceCjk('연결이')).toBe(' 연 결 이 ');
    // a kana's voiced mark written apart stays on it; a Latin letter's combining dot (shared with Han) stays on it
    expect(spaceCjk('か\u3099x')).toBe(' か\u3099 x');
    expect(spaceCjk('a\u0323 naïve café, 404 → ok')).toBe('a\u0323 naïve café, 404 → ok');
  });
});

describe('cjkPieces', () => {
  it('cuts a word into its CJK characters and the stretches between them, at their places', () => {
    expect(cjkPieces('tauri文件x')).toEqual([
      { text: 'tauri', index: 0, cjk: false },
      { text: '文', index: 5, cjk: true },
      { text: '件', index: 6, cjk: true },
      { text: 'x', index: 7, cjk: false },
    ]);
    expect(cjkPieces('plain')).toEqual([{ text: 'plain', index: 0, cjk: false }]);
  });
});

describe('mayHoldCjk', () => {
  it('is true for every code point that is a CJK character (the quick look misses none)', () => {
    const missed: string[] = [];
    let cjk = 0;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (cjkPieces(c)[0]?.cjk !== true) continue;
      cjk += 1;
      if (!mayHoldCjk(`ab${c}cd`)) missed.push(cp.toString(16));
    }
    expect(cjk).toBeGreaterThan(90_000);
    expect(missed).toEqual([]);
  });

  it('is false for text with no CJK, so it is left as it is', () => {
    expect(mayHoldCjk('a naïve café, 404 → ok ✓ — “quoted”')).toBe(false);
    expect(spaceCjk('a naïve café')).toBe('a naïve café');
  });
});
