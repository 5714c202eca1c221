import { describe, expect, it } from 'vitest';
import { pathAndTail } from './index';

describe('pathAndTail', () => {
  it("splits a file tool's summary into its path and what core writes after it", () => {
    expect(pathAndTail('docs/orders.md (63 lines)')).toEqual(['docs/orders.md', ' (63 lines)']);
    expect(pathAndTail('tests/pricing.test.js +1 −1')).toEqual(['tests/pricing.test.js', ' +1 −1']);
    expect(pathAndTail('src/a b/c.ts +1,204 −3')).toEqual(['src/a b/c.ts', ' +1,204 −3']);
    // a path alone, or one whose brackets are its own, stays whole
    expect(pathAndTail('README.md')).toEqual(['README.md', '']);
    expect(pathAndTail('(1 line)')).toEqual(['(1 line)', '']);
  });
});
