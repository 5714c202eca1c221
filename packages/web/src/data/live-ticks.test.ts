import { describe, expect, it } from 'vitest';
import { type Timers, throttledTicks } from './live-ticks';

/** A clock moved by hand, with the timers due by then run in order. */
function manualTimers() {
  let now = 0;
  let next = 0;
  const due = new Map<number, { at: number; run: () => void }>();
  const timers: Timers = {
    now: () => now,
    setTimeout: (run, ms) => {
      next += 1;
      due.set(next, { at: now + ms, run });
      return next;
    },
    clearTimeout: (handle) => due.delete(handle as number),
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const [id, first] = [...due].sort((a, b) => a[1].at - b[1].at)[0] ?? [];
      if (id === undefined || first === undefined || first.at > until) break;
      due.delete(id);
      now = first.at;
      first.run();
    }
    now = until;
  };
  return { timers, advance, pending: () => due.size };
}

function setup(minMs: number) {
  const clock = manualTimers();
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
    () => ticks.push(clock.timers.now()),
    clock.timers,
  );
  return { clock, change: () => emit(), ticks, stop, subscribed: () => subscribed };
}

describe('throttledTicks', () => {
  it('ticks at once for the first change after a quiet spell', () => {
    const t = setup(5_000);
    t.change();
    expect(t.ticks).toEqual([0]);
    t.clock.advance(6_000);
    t.change();
    expect(t.ticks).toEqual([0, 6_000]);
  });

  it('ticks once, when the spell is over, for every change that came sooner', () => {
    const t = setup(5_000);
    t.change();
    // An agent appending every half second for 12 s: ticks at 0, 5 s, 10 s and once after the last change.
    for (let i = 0; i < 24; i++) {
      t.clock.advance(500);
      t.change();
    }
    t.clock.advance(10_000);
    expect(t.ticks).toEqual([0, 5_000, 10_000, 15_000]);
  });

  it('stops ticking when unsubscribed, a tick still waiting included', () => {
    const t = setup(5_000);
    t.change();
    t.clock.advance(1_000);
    t.change();
    expect(t.clock.pending()).toBe(1);
    t.stop();
    expect(t.subscribed()).toBe(false);
    expect(t.clock.pending()).toBe(0);
    t.clock.advance(10_000);
    expect(t.ticks).toEqual([0]);
  });
});
