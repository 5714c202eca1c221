import type { WaterfallBar, WaterfallLane } from '../data/types';

/** Height of one row of bars, the label column's widest width and the time axis's height, in CSS pixels. */
export const LANE_H = 26;
export const LABEL_W = 170;
export const TOP = 24;

/**
 * The lane labels' column in a canvas `width` CSS pixels wide: 170 px on a desk, down to 28 % of a narrow canvas (96
 * px at least): on a phone the fixed column left 150 px of 330 for 283 calls and one time tick (a review at 360 px).
 */
export function labelWidth(width: number): number {
  return Math.round(Math.min(LABEL_W, Math.max(96, width * 0.28)));
}
/** Parallel calls stack on at most this many rows per lane; more overlap on the last one. */
const MAX_ROWS = 6;

export interface LaneBox {
  readonly lane: WaterfallLane;
  /** Top of the lane. */
  readonly y: number;
  /** Rows of bars (at least 2, so that the label fits). */
  readonly rows: number;
  /** The row of each of `lane.calls`. */
  readonly rowOf: readonly number[];
}

export interface Hit {
  readonly bar: WaterfallBar;
  readonly lane: WaterfallLane;
}

/**
 * Lanes stacked top to bottom; in each, calls that overlap in time go on separate rows (first free row, calls in
 * start order), so parallel calls stay visible.
 */
export function laneLayout(lanes: readonly WaterfallLane[]): LaneBox[] {
  const out: LaneBox[] = [];
  let y = TOP;
  for (const lane of lanes) {
    const rowEnds: number[] = [];
    const rowOf = lane.calls.map((bar) => {
      let row = rowEnds.findIndex((end) => end <= bar.startMs);
      if (row === -1) row = rowEnds.length < MAX_ROWS ? rowEnds.length : MAX_ROWS - 1;
      rowEnds[row] = Math.max(rowEnds[row] ?? 0, bar.endMs);
      return row;
    });
    const rows = Math.max(2, rowEnds.length);
    out.push({ lane, y, rows, rowOf });
    y += rows * LANE_H;
  }
  return out;
}

/** The time under a pointer's x, in a canvas at `rect` showing `view` (`t0`–`t1` across the plot right of the labels). */
export function timeAt(view: { readonly t0: number; readonly t1: number }, rect: DOMRect, clientX: number): number {
  const label = labelWidth(rect.width);
  return view.t0 + ((clientX - rect.left - label) / (rect.width - label)) * (view.t1 - view.t0);
}

/** Where a pointer is over a canvas at `rect` showing `view`: the time under it, its height, and the lane there. */
function pointerAt(
  layout: readonly LaneBox[],
  view: { readonly t0: number; readonly t1: number },
  rect: DOMRect,
  clientX: number,
  clientY: number,
) {
  const y = clientY - rect.top;
  return { t: timeAt(view, rect, clientX), y, box: layout.find((l) => y >= l.y && y < l.y + l.rows * LANE_H) };
}

/** The call under a pointer (within 3 px either side, so a short call can be hit), and its lane. */
export function hitAt(
  layout: readonly LaneBox[],
  view: { readonly t0: number; readonly t1: number },
  rect: DOMRect,
  clientX: number,
  clientY: number,
): Hit | undefined {
  const { t, y, box: l } = pointerAt(layout, view, rect, clientX, clientY);
  if (!l) return undefined;
  const slack = ((view.t1 - view.t0) / (rect.width - labelWidth(rect.width))) * 3;
  const row = Math.floor((y - l.y) / LANE_H);
  for (let i = 0; i < l.lane.calls.length; i++) {
    const bar = l.lane.calls[i];
    if (!bar || l.rowOf[i] !== row) continue;
    if (t >= bar.startMs - slack && t <= bar.endMs + slack) return { bar, lane: l.lane };
  }
  return undefined;
}

/** A band under the pointer where no call is: what a lane's time was, as the waterfall draws it behind the calls. */
export interface BandHit {
  readonly kind: 'unrecorded' | 'idle' | 'waiting' | 'model';
  readonly startMs: number;
  readonly endMs: number;
  /** What the time partition counts an unrecorded stretch as. */
  readonly countedAs?: 'tool' | 'user' | 'idle';
  readonly lane: WaterfallLane;
}

/** The band under a pointer (no call there): a stretch no record covers, idle, a wait for the person, a model turn. */
export function bandAt(
  layout: readonly LaneBox[],
  view: { readonly t0: number; readonly t1: number },
  rect: DOMRect,
  clientX: number,
  clientY: number,
): BandHit | undefined {
  const { t, box } = pointerAt(layout, view, rect, clientX, clientY);
  if (!box) return undefined;
  const lane = box.lane;
  const within = (i: { readonly startMs: number; readonly endMs: number }) => t >= i.startMs && t < i.endMs;
  const gap = lane.unrecorded.find(within);
  if (gap) return { kind: 'unrecorded', startMs: gap.startMs, endMs: gap.endMs, countedAs: gap.countedAs, lane };
  for (const [kind, list] of [
    ['idle', lane.idle],
    ['waiting', lane.user],
    ['model', lane.model],
  ] as const) {
    const band = list.find(within);
    if (band) return { kind, startMs: band.startMs, endMs: band.endMs, lane };
  }
  return undefined;
}

/**
 * `text` as drawn in `width` pixels: whole when it fits, else as many whole words as fit and an ellipsis, the
 * punctuation or separator (` · `) before it dropped (a single word wider than the column is cut by characters).
 * Never squeezed: canvas `fillText`'s `maxWidth` narrows the glyphs instead, which made long labels unreadable.
 */
export function fitText(text: string, width: number, measure: (text: string) => number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (measure(flat) <= width) return flat;
  const words = flat.split(' ');
  for (let n = words.length - 1; n >= 1; n--) {
    const shown = `${words
      .slice(0, n)
      .join(' ')
      .replace(/[\s,;:.·–—-]+$/, '')}…`;
    if (measure(shown) <= width) return shown;
  }
  let word = words[0] ?? '';
  while (word.length > 0 && measure(`${word}…`) > width) word = word.slice(0, -1);
  return `${word}…`;
}
