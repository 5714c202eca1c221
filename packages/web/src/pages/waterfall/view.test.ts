import { describe, expect, it } from 'vitest';
import { followView, wholeView } from './view';

describe('the waterfall window over a live session', () => {
  const before = { startMs: 1_000, endMs: 5_000 };
  const after = { startMs: 1_000, endMs: 9_000 };

  it('shows the whole session at first, never narrower than the least span', () => {
    expect(followView(undefined, undefined, after)).toEqual({ t0: 1_000, t1: 9_000 });
    expect(wholeView({ startMs: 1_000, endMs: 1_000 })).toEqual({ t0: 1_000, t1: 1_050 });
  });

  it('widens a window that showed the whole session to the session grown', () => {
    expect(followView(wholeView(before), before, after)).toEqual({ t0: 1_000, t1: 9_000 });
  });

  it('keeps a window the reader zoomed or panned', () => {
    expect(followView({ t0: 2_000, t1: 3_000 }, before, after)).toEqual({ t0: 2_000, t1: 3_000 });
  });
});
