import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { packDocText, registerDocText, unpackDocText } from './doc-text.js';

describe('doc text', () => {
  it('stores long text compressed and short text plain, and gives back the same text, in JS and in SQL', () => {
    const long = `${'naïve café — 漢字 🙂 '.repeat(200)}end`;
    const packed = packDocText(long);
    expect(Buffer.isBuffer(packed)).toBe(true);
    expect(packed.length).toBeLessThan(Buffer.byteLength(long) / 5);
    expect(unpackDocText(packed)).toBe(long);
    expect(packDocText('short')).toBe('short');
    const db = new Database(':memory:');
    registerDocText(db);
    expect(db.prepare('SELECT doc_text(?), doc_text(?), doc_text(NULL)').raw().get(packed, 'short')).toEqual([
      long,
      'short',
      null,
    ]);
    db.close();
  });
});
