/** The waterfall's time window: the whole session, and which window a live reload keeps. */
import type { WaterfallResponse } from '../../data/types';
import { MIN_SPAN_MS, type View } from './draw';

type Span = Pick<WaterfallResponse, 'startMs' | 'endMs'>;

/** The whole session, at least `MIN_SPAN_MS` wide. */
export function wholeView(w: Span): View {
  return { t0: w.startMs, t1: Math.max(w.endMs, w.startMs + MIN_SPAN_MS) };
}

/**
 * The window to show once the session's waterfall is loaded again (it grew live): a reader who saw the whole session
 * goes on seeing all of it, new calls included; one who zoomed or panned keeps that window.
 */
export function followView(view: View | undefined, before: Span | undefined, after: Span): View {
  if (!view || !before) return wholeView(after);
  const whole = wholeView(before);
  return view.t0 === whole.t0 && view.t1 === whole.t1 ? wholeView(after) : view;
}
