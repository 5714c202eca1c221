/**
 * A timeline page's cut of a long text never leaves half an emoji: the cut at `STRING_LIMIT` UTF-16 units fell
 * inside a surrogate pair, and the page showed � where the text was cut (a review).
 */
import { type Clip, clip, STRING_LIMIT } from '@agentdash/api';
import { expect, it } from 'vitest';

it('cuts before an emoji the limit would split, and says it cut', () => {
  const text = `${'x'.repeat(STRING_LIMIT - 1)}😀 and more`;
  const state: Clip = { truncated: false };
  const cut = clip({ output: text }, state).output;
  expect(cut).toBe('x'.repeat(STRING_LIMIT - 1));
  expect(state.truncated).toBe(true);
  const whole = clip({ output: `${'x'.repeat(STRING_LIMIT - 2)}😀 and more` }, { truncated: false }).output;
  expect(whole.endsWith('😀')).toBe(true);
});
