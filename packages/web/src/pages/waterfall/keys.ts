/**
 * The waterfall by keyboard: which call a key moves to, the window that shows it, and what a screen reader is told.
 * The canvas holds the focus; the call it is on is drawn and described as the one under the pointer is.
 */
import { plural } from '@agentdash/core/present';
import type { WaterfallLane } from '../../data/types';
import { fmtDuration } from '../../ui/format';
import { type Hit, LANE_H, type LaneBox } from '../../ui/waterfall-geometry';
import type { View } from './draw';

/** The keys that move between calls. */
export const MOVES = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'] as const;
export type Move = (typeof MOVES)[number];

export function isMove(key: string): key is Move {
  return (MOVES as readonly string[]).includes(key);
}

/** The call with id `id` and its lane, if the waterfall still has it (it is loaded again while a session grows). */
export function hitOfId(lanes: readonly WaterfallLane[], id: string | undefined): Hit | undefined {
  if (id === undefined) return undefined;
  for (const lane of lanes) {
    const bar = lane.calls.find((c) => c.id === id);
    if (bar) return { bar, lane };
  }
  return undefined;
}

/**
 * Where `move` goes from `at`: left and right to the previous and next call of the same thread (in start order),
 * Home and End to its first and last; up and down to the nearest thread above or below that has calls, on its call
 * that starts closest in time (the earlier of two as close). From nowhere, any move goes to the first call of the
 * first thread with calls. Undefined when the waterfall has no calls; `at` itself at an edge.
 */
export function stepCall(lanes: readonly WaterfallLane[], at: Hit | undefined, move: Move): Hit | undefined {
  const withCalls = lanes.filter((l) => l.calls.length > 0);
  const first = withCalls[0];
  const here = at && withCalls.indexOf(at.lane);
  if (!at || here === undefined || here < 0) return first && { lane: first, bar: first.calls[0] as Hit['bar'] };
  const { calls } = at.lane;
  const i = calls.indexOf(at.bar);
  const inLane = (j: number): Hit => ({
    lane: at.lane,
    bar: calls[Math.max(0, Math.min(calls.length - 1, j))] as Hit['bar'],
  });
  switch (move) {
    case 'ArrowLeft':
      return inLane(i - 1);
    case 'ArrowRight':
      return inLane(i + 1);
    case 'Home':
      return inLane(0);
    case 'End':
      return inLane(calls.length - 1);
    case 'ArrowUp':
    case 'ArrowDown': {
      const lane = withCalls[here + (move === 'ArrowUp' ? -1 : 1)];
      if (!lane) return at;
      let best = lane.calls[0] as Hit['bar'];
      for (const bar of lane.calls) {
        if (Math.abs(bar.startMs - at.bar.startMs) < Math.abs(best.startMs - at.bar.startMs)) best = bar;
      }
      return { lane, bar: best };
    }
  }
}

/**
 * The window that shows `bar`: `view` when some of the bar is in it, else the same span moved so that the bar starts
 * a tenth of the way in (a bar wider than the window then fills it from there).
 */
export function viewShowing(view: View, bar: Hit['bar']): View {
  if (bar.endMs >= view.t0 && bar.startMs <= view.t1) return view;
  const span = view.t1 - view.t0;
  const t0 = bar.startMs - span / 10;
  return { t0, t1: t0 + span };
}

/** What a screen reader says of the call the keyboard is on. */
export function describeCall(hit: Hit): string {
  const { bar, lane } = hit;
  const outcome = bar.expected ? 'expected error' : bar.status;
  const thread = lane.key === 'main' ? 'main thread' : lane.label;
  const at = lane.calls.indexOf(bar) + 1;
  const span = bar.open
    ? `no result after ${fmtDuration(bar.endMs - bar.startMs)}`
    : fmtDuration(bar.endMs - bar.startMs);
  return `${bar.tool}, ${outcome}, ${span}, ${thread}, call ${at} of ${lane.calls.length}. Enter opens it in the timeline.`;
}

/** The canvas's instructions, said when it takes the focus (before the lanes' names, which `draw` adds). */
export function keyHelp(calls: number): string {
  return calls === 0
    ? 'No calls.'
    : `${plural(calls, 'call')}: arrow keys move between calls and threads, Home and End to a thread's first and last, Enter opens the call in the timeline.`;
}

/** Scroll the page so that `lane`'s rows on `canvas` are in view (a waterfall of many threads is taller than it). */
export function scrollLaneIntoView(
  canvas: HTMLCanvasElement | null,
  layout: readonly LaneBox[],
  lane: Hit['lane'],
): void {
  const box = layout.find((l) => l.lane === lane);
  if (!canvas || !box) return;
  const top = canvas.getBoundingClientRect().top + box.y;
  const bottom = top + box.rows * LANE_H;
  if (top < 0) window.scrollBy(0, top - 8);
  else if (bottom > window.innerHeight) window.scrollBy(0, bottom - window.innerHeight + 8);
}
