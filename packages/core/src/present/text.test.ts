import { describe, expect, it } from 'vitest';
import { shortModels } from './text.js';

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
