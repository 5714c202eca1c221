import { describe, expect, it } from 'vitest';
import { formatTypedChars } from './typed-chars.js';

describe('formatTypedChars', () => {
  it('shows control characters (Codex write_stdin, corpus 0.169 shell scenario)', () => {
    expect(formatTypedChars('typed into cat\n\u0004')).toBe('typed into cat\\n^D');
    expect(formatTypedChars('\u0003\u001b[A\r\t\u007f\u0000')).toBe('^C^[[A\\r\\t^?^@');
  });

  it('keeps printable text, a backslash escaped so `\\n` typed reads apart from a newline', () => {
    expect(formatTypedChars('héllo ✓ ^D')).toBe('héllo ✓ ^D');
    expect(formatTypedChars('a\\nb')).toBe('a\\\\nb');
    expect(formatTypedChars('')).toBe('');
  });
});
