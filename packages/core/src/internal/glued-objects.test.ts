import { describe, expect, it } from 'vitest';
import { splitGluedObjects } from './glued-objects.js';

describe('splitGluedObjects', () => {
  it('splits records glued on one line at the top-level boundary, not at braces inside strings', () => {
    const a = '{"type":"assistant","message":{"content":[{"type":"text","text":"a }{ b \\" }{"}]}}';
    const b = '{"type":"summary","summary":"x"}';
    expect(splitGluedObjects(`${a}${b}`)).toEqual([a, b]);
    expect(splitGluedObjects(`${a} ${b}{"c":1}`)).toEqual([a, b, '{"c":1}']);
  });

  it('returns undefined for one object, for anything that is not objects, and keeps an unfinished tail', () => {
    expect(splitGluedObjects('{"a":1}')).toBeUndefined();
    expect(splitGluedObjects('[1]{"a":1}')).toBeUndefined();
    expect(splitGluedObjects('{"a":1}x{"b":2}')).toBeUndefined();
    expect(splitGluedObjects('{"a":1}}{"b":2}')).toBeUndefined();
    expect(splitGluedObjects('{"a":1}{"b":')).toEqual(['{"a":1}', '{"b":']);
  });
});
