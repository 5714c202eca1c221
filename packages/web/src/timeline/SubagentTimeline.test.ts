import { describe, expect, it } from 'vitest';
import type { EventDto, ImageValue } from '../data/types';
import { opensWithCallPrompt } from './SubagentTimeline';

const prompt = (text: string, images: readonly ImageValue[] = []): EventDto => ({
  kind: 'prompt',
  index: 0,
  uuid: 'u1',
  timestamp: null,
  text,
  images,
});

describe('a subagent timeline', () => {
  it('leaves out its first prompt only when it is the call prompt, as written', () => {
    expect(opensWithCallPrompt([prompt('Find the bug in a.ts\n')], 'Find the bug in a.ts')).toBe(true);
    expect(opensWithCallPrompt([prompt('Find the bug in b.ts')], 'Find the bug in a.ts')).toBe(false);
    expect(opensWithCallPrompt([prompt('Find the bug in a.ts')], undefined)).toBe(false);
    expect(opensWithCallPrompt([], 'Find the bug in a.ts')).toBe(false);
    const withImage = prompt('Look', [{} as ImageValue]);
    expect(opensWithCallPrompt([withImage], 'Look')).toBe(false);
  });
});
