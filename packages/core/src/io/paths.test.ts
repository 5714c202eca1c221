import { describe, expect, it } from 'vitest';
import { isUnder } from './paths.js';

describe('isUnder', () => {
  it('takes the folder itself and what is inside it, never a sibling sharing its name as a prefix', () => {
    expect(isUnder('/a/b', '/a/b')).toBe(true);
    expect(isUnder('/a/b/c.jsonl', '/a/b')).toBe(true);
    expect(isUnder('/a/b/c/d', '/a/b/')).toBe(true);
    expect(isUnder('/a/bc', '/a/b')).toBe(false);
    expect(isUnder('/a', '/a/b')).toBe(false);
    expect(isUnder('/', '/')).toBe(true);
    expect(isUnder('/x', '/')).toBe(true);
  });
});
