import { type KeyboardEvent, type MouseEvent, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../data/client';
import { useSessionAnswer } from '../../data/use-session-answer';
import { sessionHref } from '../../ui/router';
import { useThemeVersion } from '../../ui/theme';
import {
  type BandHit,
  bandAt,
  type Hit,
  hitAt,
  LANE_H,
  labelWidth,
  laneLayout,
  TOP,
  timeAt,
} from '../../ui/waterfall-geometry';
import { draw, MIN_SPAN_MS, type View } from './draw';
import { describeCall, hitOfId, isMove, scrollLaneIntoView, stepCall, viewShowing } from './keys';
import type { MeasuredCalls } from './measured';
import { followView, wholeView } from './view';

/**
 * A session's waterfall: its lanes, and the time window shown (the whole session at first, zoomed by a factor). It
 * follows the session live (loaded again at most once a second while it grows), keeping a window the reader chose.
 */
export function useWaterfall(id: string) {
  const [view, setView] = useState<View | undefined>();
  const { data, error } = useSessionAnswer(id, api.waterfall, (before, w) =>
    setView((v) => followView(before && v, before, w)),
  );
  const layout = useMemo(() => (data ? laneLayout(data.lanes) : []), [data]);
  const totalCalls = useMemo(() => data?.lanes.reduce((a, l) => a + l.calls.length, 0) ?? 0, [data]);
  const openCalls = useMemo(
    () => data?.lanes.reduce((a, l) => a + l.calls.filter((c) => c.open).length, 0) ?? 0,
    [data],
  );
  const zoom = (factor: number) =>
    setView((v) => {
      if (!v) return v;
      const mid = (v.t0 + v.t1) / 2;
      const span = Math.max(MIN_SPAN_MS, (v.t1 - v.t0) * factor);
      return { t0: mid - span / 2, t1: mid + span / 2 };
    });
  return {
    id,
    data,
    error,
    view,
    setView,
    layout,
    height: layout.reduce((h, l) => Math.max(h, l.y + l.rows * LANE_H), TOP) + 8,
    totalCalls,
    openCalls,
    zoom,
    reset: () => data && setView(wholeView(data)),
  };
}

export type Waterfall = ReturnType<typeof useWaterfall>;

/**
 * The waterfall's canvas: drawn from the data and window (again on resize and theme change), zoomed around the
 * pointer by the wheel, panned by dragging, a call under the pointer shown, a click opening it in the timeline. By
 * keyboard (keys.ts): the arrows move between calls and threads, the call moved to shown as the pointer's is (the
 * window following it), Enter opening it.
 */
export function useWaterfallCanvas(wf: Waterfall, measured?: MeasuredCalls) {
  const { data, view, setView, layout, height } = wf;
  const [hover, setHover] = useState<Hit | undefined>();
  /** The band under the pointer where no call is (what that time was). */
  const [band, setBand] = useState<BandHit | undefined>();
  /** The call the keyboard is on (by id: the waterfall is loaded again while a session grows), while the canvas has focus. */
  const [keyed, setKeyed] = useState<{ readonly id: string; readonly focused: boolean } | undefined>();
  const keyHit = useMemo(() => (keyed?.focused ? hitOfId(data?.lanes ?? [], keyed.id) : undefined), [data, keyed]);
  const shown = hover ?? keyHit;
  /** What the live region says: the call the keyboard last moved to. */
  const [said, setSaid] = useState('');
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drag = useRef<{ x: number; view: View; moved: boolean } | undefined>(undefined);
  const themeVersion = useThemeVersion();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the canvas is redrawn when its CSS height changes
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !data || !view) return;
    const frame = requestAnimationFrame(() => draw(canvas, data, view, shown?.bar, measured));
    return () => cancelAnimationFrame(frame);
  }, [data, view, shown, height, themeVersion, measured]);

  useEffect(() => {
    const onResize = () => setView((v) => (v ? { ...v } : v));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [setView]);

  // Wheel: zoom around the pointer (a native listener: React's is passive and cannot prevent scrolling).
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !data) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const rect = canvas.getBoundingClientRect();
      setView((v) => {
        if (!v) return v;
        const at = timeAt(v, rect, e.clientX);
        const factor = Math.exp((e.deltaY || e.deltaX) * 0.0015);
        const span = Math.max(MIN_SPAN_MS, Math.min((v.t1 - v.t0) * factor, (data.endMs - data.startMs) * 1.2 + 1000));
        const ratio = (at - v.t0) / (v.t1 - v.t0);
        return { t0: at - ratio * span, t1: at - ratio * span + span };
      });
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, [data, setView]);

  const hitOf = (e: MouseEvent) => {
    const canvas = canvasRef.current;
    return canvas && view ? hitAt(layout, view, canvas.getBoundingClientRect(), e.clientX, e.clientY) : undefined;
  };
  const handlers = {
    onMouseDown: (e: MouseEvent) => {
      setBand(undefined);
      if (view) drag.current = { x: e.clientX, view, moved: false };
    },
    onMouseMove: (e: MouseEvent) => {
      const d = drag.current;
      const canvas = canvasRef.current;
      if (d && canvas) {
        const dx = e.clientX - d.x;
        if (Math.abs(dx) > 3) d.moved = true;
        const w = canvas.getBoundingClientRect().width;
        const dt = (dx / (w - labelWidth(w))) * (d.view.t1 - d.view.t0);
        setView({ t0: d.view.t0 - dt, t1: d.view.t1 - dt });
        return;
      }
      const hit = hitOf(e);
      if (hit?.bar !== hover?.bar) setHover(hit);
      const under =
        hit || !canvas || !view
          ? undefined
          : bandAt(layout, view, canvas.getBoundingClientRect(), e.clientX, e.clientY);
      if (under?.startMs !== band?.startMs || under?.kind !== band?.kind || under?.lane !== band?.lane) setBand(under);
    },
    onMouseUp: (e: MouseEvent) => {
      const d = drag.current;
      drag.current = undefined;
      if (d?.moved) return;
      const hit = hitOf(e);
      if (hit) window.location.hash = sessionHref(wf.id, hit.bar.id);
    },
    onMouseLeave: () => {
      drag.current = undefined;
      setHover(undefined);
      setBand(undefined);
    },
    onKeyDown: (e: KeyboardEvent) => {
      // with a modifier the key is the browser's (Alt+← goes back) or the page's
      if (!data || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      if (isMove(e.key)) {
        const next = stepCall(data.lanes, keyHit, e.key);
        if (!next) return;
        e.preventDefault();
        // the keyboard's call is the one shown, not one the pointer happens to rest on
        setHover(undefined);
        setKeyed({ id: next.bar.id, focused: true });
        // said once per move, not again each time a live session's reload changes the call's duration or count
        setSaid(describeCall(next));
        setView((v) => v && viewShowing(v, next.bar));
        scrollLaneIntoView(canvasRef.current, layout, next.lane);
      } else if ((e.key === 'Enter' || e.key === ' ') && keyHit) {
        e.preventDefault();
        window.location.hash = sessionHref(wf.id, keyHit.bar.id);
      }
    },
    onFocus: () => setKeyed((k) => k && { ...k, focused: true }),
    onBlur: () => setKeyed((k) => k && { ...k, focused: false }),
  };
  const cursor = hover ? 'pointer' : drag.current ? 'grabbing' : 'grab';
  return { canvasRef, hover: shown, band: shown ? undefined : band, said: keyHit ? said : '', handlers, cursor };
}
