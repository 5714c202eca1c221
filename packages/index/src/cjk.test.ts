import { describe, expect, it } from 'vitest';
import { cjkPieces, spaceCjk } from './cjk.js';

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
