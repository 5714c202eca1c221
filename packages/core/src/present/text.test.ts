import { describe, expect, it } from 'vitest';
import { shortId, shortModels, uniquePrefixes } from './text.js';

describe('shortModels', () => {
  it('drops claude- and the date, unless two models would then read alike', () => {
    const names = shortModels([
      'claude-sonnet-4',
      'claude-sonnet-4-20250514',
      'claude-opus-4-5-20251101',
      'gpt-5-codex',
    ]);
    expect([...names.values()]).toEqual(['sonnet-4', 'sonnet-4-20250514', 'opus-4-5', 'gpt-5-codex']);
    expect(new Set(names.values()).size).toBe(names.size);
  });
});

describe('uniquePrefixes', () => {
  it('gives each id the shortest prefix of at least 8 characters no other id starts with', () => {
    const ids = [
      '01a205e9-7215-7200-aa11-0839c0abf80f',
      '01a205e9-7215-7a00-bb22-1111c0abf80f',
      '01a205ea-0001-7000-8000-000000000000',
      'cd11f12b-b0ad-4540-90e3-b4254028db1f',
    ];
    const prefixes = uniquePrefixes(ids);
    expect([...prefixes.values()]).toEqual(['01a205e9-7215-72', '01a205e9-7215-7a', '01a205ea', 'cd11f12b']);
    for (const [id, prefix] of prefixes) {
      expect(id.startsWith(prefix)).toBe(true);
      expect(ids.filter((other) => other.startsWith(prefix))).toEqual([id]);
    }
  });
});

describe('shortId', () => {
  it("keeps a UUID's first 8 characters, another id whole or cut with an ellipsis, never mid-word at 8", () => {
    expect(shortId('cd11f12b-b0ad-4540-90e3-b4254028db1f')).toBe('cd11f12b');
    expect(shortId('01a205e9-7215-7200-aa11-0839c0abf80f', 16)).toBe('01a205e9-7215-72');
    expect(shortId('truth@0.61.0')).toBe('truth@0.61.0');
    expect(shortId('a-session-named-after-a-very-long-file')).toBe('a-session-named-after-a-…');
    expect(shortId('short')).toBe('short');
  });
});
