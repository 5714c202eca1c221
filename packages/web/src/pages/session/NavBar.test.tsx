import { describe, expect, it } from 'vitest';
import type { SessionErrorHit } from '../../data/types';
import { errorBarText } from './NavBar';

const hit = (callId: string, severity: SessionErrorHit['severity']): SessionErrorHit => ({
  callId,
  index: 0,
  expand: [],
  tool: 'Bash',
  severity,
  category: null,
  timestamp: null,
});
// A shell session's: 4 errors and 2 expected ones, in timeline order.
const errors = [
  hit('a', 'error'),
  hit('b', 'expected'),
  hit('c', 'error'),
  hit('d', 'error'),
  hit('e', 'expected'),
  hit('f', 'error'),
];

describe('the error bar', () => {
  it('counts the errors as the header does, the expected ones apart', () => {
    expect(errorBarText(errors, -1, undefined)).toEqual({ position: '4 errors', expected: 2, real: 4 });
    expect(errorBarText([hit('b', 'expected')], -1, undefined)).toEqual({ position: '0 errors', expected: 1, real: 0 });
    expect(errorBarText([], -1, undefined)).toEqual({ position: 'No errors', expected: 0, real: 0 });
  });

  it('numbers an error among those of its kind', () => {
    expect(errorBarText(errors, 2, undefined).position).toBe('Error 2 of 4');
    expect(errorBarText(errors, 4, undefined).position).toBe('Expected error 2 of 2');
  });

  it('counts the header’s errors the same way while their list is on its way', () => {
    expect(errorBarText([], -1, { count: 6, expected: 2, state: 'loading' })).toEqual({
      position: '4 errors…',
      expected: 2,
      real: 4,
    });
  });
});
