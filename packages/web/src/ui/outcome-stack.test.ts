import { describe, expect, it } from 'vitest';
import { outcomeStack } from './format';

describe('outcomeStack', () => {
  it('stacks each call once: ok, real errors, expected errors (the API counts the expected among the errors)', () => {
    const stack = outcomeStack({ calls: 10, errors: 4, expectedErrors: 1 });
    expect(stack).toEqual({ okCalls: 6, realErrors: 3, expectedErrors: 1 });
    expect(stack.okCalls + stack.realErrors + stack.expectedErrors).toBe(10);
  });
});
