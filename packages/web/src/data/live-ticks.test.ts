import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttledTicks } from './live-ticks';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function setup(minMs: number) {
  const start = performance.now();
  let emit: () => void = () => {};
  let subscribed = true;
  const ticks: number[] = [];
  const stop = throttledTicks(
    (onChange) => {
      emit = onChange;
      return () => {
        subscribed = false;
      };
    },
    minMs,
    () => ticks.push(performance.now() - start),
  );
  return { change: () => emit(), ticks, stop, subscribed: () => subscribed };
}

describe('throttledTicks', () => {
  it('ticks at once for the first change after a quiet spell', () => {
    const t = setup(5_000);
    t.change();
    expect(t.ticks).toEqual([0]);
    vi.advanceTimersByTime(6_000);
    t.change();
    expect(t.ticks).toEqual([0, 6_000]);
  });

  it('ticks once, when the spell is over, for every change that came sooner', () => {
    const t = setup(5_000);
    t.change();
    // An agent appending every half second for 12 s: ticks at 0, 5 s, 10 s and once after the last change.
    for (let i = 0; i < 24; i++) {
      vi.advanceTimersByTime(500);
      t.change();
    }
    vi.advanceTimersByTime(10_000);
    expect(t.ticks).toEqual([0, 5_000, 10_000, 15_000]);
  });

  it('stops ticking when unsubscribed, a tick still waiting included', () => {
    const t = setup(5_000);
    t.change();
    vi.advanceTimersByTime(1_000);
    t.change();
    expect(vi.getTimerCount()).toBe(1);
    t.stop();
    expect(t.subscribed()).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(t.ticks).toEqual([0]);
  });
});
