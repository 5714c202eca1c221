import { describe, expect, it } from 'vitest';
import type { WaterfallBar, WaterfallLane } from '../../data/types';
import { fmtDuration } from '../../ui/format';
import type { Hit } from '../../ui/waterfall-geometry';
import { describeCall, hitOfId, type Move, stepCall, viewShowing } from './keys';

const bar = (id: string, startMs: number, endMs: number, extra: Partial<WaterfallBar> = {}): WaterfallBar => ({
  id,
  tool: 'Bash',
  status: 'ok',
  startMs,
  endMs,
  open: false,
  ...extra,
});
const lane = (key: string, calls: readonly WaterfallBar[]): WaterfallLane => ({
  key,
  label: key === 'main' ? 'main' : `agent ${key}`,
  startMs: 0,
  endMs: 100,
  calls,
  model: [],
  user: [],
  idle: [],
  unrecorded: [],
});

// main: a b c; an empty subagent lane; a subagent with d (near b) and e.
const main = lane('main', [bar('a', 0, 10), bar('b', 20, 30), bar('c', 60, 70)]);
const empty = lane('s0', []);
const sub = lane('s1', [bar('d', 24, 26), bar('e', 50, 55, { status: 'error', expected: true })]);
const lanes = [main, empty, sub];

function walk(keys: readonly Move[], from?: Hit): string[] {
  const out: string[] = [];
  let at = from;
  for (const key of keys) {
    at = stepCall(lanes, at, key);
    out.push(at?.bar.id ?? '-');
  }
  return out;
}

describe('moving between a waterfall’s calls by keyboard', () => {
  it('starts on the first call, then goes along a thread and stops at its ends', () => {
    expect(walk(['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowLeft', 'Home', 'End'])).toEqual([
      'a',
      'b',
      'c',
      'c',
      'b',
      'a',
      'c',
    ]);
  });

  it('goes up and down to the nearest thread with calls, on its call closest in time', () => {
    const b = hitOfId(lanes, 'b');
    expect(walk(['ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowUp', 'ArrowUp'], b)).toEqual(['d', 'd', 'e', 'c', 'c']);
  });

  it('has nowhere to go without calls, and finds a call again by id in a reloaded waterfall', () => {
    expect(stepCall([empty], undefined, 'ArrowRight')).toBeUndefined();
    const reloaded = [lane('main', [bar('a', 0, 10), bar('b', 20, 40)])];
    expect(hitOfId(reloaded, 'b')?.bar.endMs).toBe(40);
    expect(hitOfId(reloaded, 'gone')).toBeUndefined();
    // a call from before the reload (its lane object gone) starts again from the first call
    expect(stepCall(reloaded, hitOfId(lanes, 'c'), 'ArrowLeft')?.bar.id).toBe('a');
  });

  it('moves the window to a call out of it, keeping its span', () => {
    const view = { t0: 0, t1: 20 };
    expect(viewShowing(view, bar('x', 15, 40))).toBe(view);
    expect(viewShowing(view, bar('y', 100, 110))).toEqual({ t0: 98, t1: 118 });
    expect(viewShowing({ t0: 200, t1: 300 }, bar('z', 50, 60))).toEqual({ t0: 40, t1: 140 });
  });

  it('says which call, how it ended, how long, where, and what Enter does', () => {
    expect(describeCall({ lane: sub, bar: sub.calls[1] as WaterfallBar })).toBe(
      `Bash, expected error, ${fmtDuration(5)}, agent s1, call 2 of 2. Enter opens it in the timeline.`,
    );
    const open = lane('main', [bar('o', 0, 3_000, { open: true })]);
    expect(describeCall({ lane: open, bar: open.calls[0] as WaterfallBar })).toMatch(
      /^Bash, ok, no result after .*main thread, call 1 of 1\./,
    );
  });
});
