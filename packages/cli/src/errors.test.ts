import { describe, expect, it } from 'vitest';
import { classify, ExitCode } from './errors.js';

describe('classify', () => {
  it('reports string-length, memory and stack failures as internal, never as bad arguments', () => {
    for (const message of [
      'Invalid string length',
      'Invalid array length',
      'Maximum call stack size exceeded',
      'Array buffer allocation failed',
    ]) {
      const classified = classify(new RangeError(message));
      expect(classified.code, message).toBe(ExitCode.internal);
      expect(classified.kind, message).toBe('internal');
      expect(classified.message.startsWith(`internal error: ${message}`), classified.message).toBe(true);
    }
  });
});
