import { AmbiguousSessionError, NativeAddonError } from '@agentdash/index';
import { describe, expect, it } from 'vitest';
import { classify, ExitCode, MAX_CANDIDATES } from './errors.js';

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

describe('a native addon this Node.js cannot load', () => {
  it('is exit 13, kind native-addon, its message as it is (no "bug in agentdash")', () => {
    const error = new NativeAddonError(
      'the SQLite addon (better-sqlite3) was built for another Node.js version (…): run `npm rebuild` in /x …',
      '/x',
    );
    expect(classify(error)).toEqual({ code: 13, kind: 'native-addon', message: error.message });
    expect(ExitCode.nativeAddon).toBe(13);
  });
});

describe('a session reference that matches several sessions', () => {
  it('is exit 5, kind ambiguous-session, with at most MAX_CANDIDATES of the references that tell them apart', () => {
    const refs = Array.from({ length: 45 }, (_, i) => `full@checkpoint-${i}`);
    const error = new AmbiguousSessionError('full', refs);
    expect(classify(error)).toEqual({
      code: ExitCode.unknownSession,
      kind: 'ambiguous-session',
      message: error.message,
      candidates: refs.slice(0, MAX_CANDIDATES),
    });
    expect(MAX_CANDIDATES).toBe(20);
  });
});
