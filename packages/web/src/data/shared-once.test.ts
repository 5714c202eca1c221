import { describe, expect, it } from 'vitest';
import { sharedOnce } from './shared-once';

/** An `ask` that counts its requests and answers each from `answers` in turn (an Error fails it). */
function counted<T>(...answers: readonly (T | Error)[]) {
  const asked = { count: 0 };
  const ask = async (): Promise<T> => {
    const answer = answers[asked.count++];
    if (answer instanceof Error || answer === undefined) throw answer ?? new Error('no answer left');
    return answer;
  };
  return { asked, ask };
}

describe('sharedOnce (one request per page load, shared)', () => {
  it('asks once however many components ask, at once or later', async () => {
    const { asked, ask } = counted(['claude', 'codex']);
    const shared = sharedOnce(ask, []);
    const answers = await Promise.all([shared.get(), shared.get(), shared.get()]);
    expect(answers).toEqual([
      ['claude', 'codex'],
      ['claude', 'codex'],
      ['claude', 'codex'],
    ]);
    expect(await shared.get()).toEqual(['claude', 'codex']);
    expect(asked.count).toBe(1);
  });

  it('answers a failure with its fallback to those waiting, and asks again on the next ask', async () => {
    const { asked, ask } = counted<readonly string[]>(new TypeError('Failed to fetch'), ['claude']);
    const shared = sharedOnce(ask, []);
    expect(await Promise.all([shared.get(), shared.get()])).toEqual([[], []]);
    expect(asked.count).toBe(1);
    expect(await shared.get()).toEqual(['claude']);
    expect(await shared.get()).toEqual(['claude']);
    expect(asked.count).toBe(2);
  });
});
