import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../data/client';
import type { WaterfallResponse } from '../data/types';
import { fmtDuration } from '../ui/format';
import { sessionHref } from '../ui/router';
import { useThemeVersion } from '../ui/theme';
import { type Hit, LABEL_W, LANE_H, laneLayout, TOP, toolColour } from '../ui/waterfall-geometry';
import { draw, MIN_SPAN_MS, type View } from './waterfall/draw';

export function WaterfallPage({ id }: { id: string }) {
  const [data, setData] = useState<WaterfallResponse | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [view, setView] = useState<View | undefined>();
  const [hover, setHover] = useState<Hit | undefined>();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drag = useRef<{ x: number; view: View; moved: boolean } | undefined>(undefined);

  useEffect(() => {
    const ctl = new AbortController();
    api
      .waterfall(id, ctl.signal)
      .then((w) => {
        setData(w);
        setView({ t0: w.startMs, t1: Math.max(w.endMs, w.startMs + MIN_SPAN_MS) });
      })
      .catch((e: unknown) => !ctl.signal.aborted && setError(e instanceof Error ? e.message : String(e)));
    return () => ctl.abort();
  }, [id]);

  const layout = useMemo(() => (data ? laneLayout(data.lanes) : []), [data]);
  const height = layout.reduce((h, l) => Math.max(h, l.y + l.rows * LANE_H), TOP) + 8;
  const themeVersion = useThemeVersion();
  const totalCalls = useMemo(() => data?.lanes.reduce((a, l) => a + l.calls.length, 0) ?? 0, [data]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the canvas is redrawn when its CSS height changes
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !data || !view) return;
    const frame = requestAnimationFrame(() => draw(canvas, data, view, hover?.bar));
    return () => cancelAnimationFrame(frame);
  }, [data, view, hover, height, themeVersion]);

  useEffect(() => {
    const onResize = () => setView((v) => (v ? { ...v } : v));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const timeAt = useCallback(
    (clientX: number): number | undefined => {
      const canvas = canvasRef.current;
      if (!canvas || !view) return undefined;
      const rect = canvas.getBoundingClientRect();
      const plotW = rect.width - LABEL_W;
      return view.t0 + ((clientX - rect.left - LABEL_W) / plotW) * (view.t1 - view.t0);
    },
    [view],
  );

  const hitAt = useCallback(
    (clientX: number, clientY: number): Hit | undefined => {
      const canvas = canvasRef.current;
      const t = timeAt(clientX);
      if (!canvas || t === undefined || !view) return undefined;
      const rect = canvas.getBoundingClientRect();
      const y = clientY - rect.top;
      const slack = ((view.t1 - view.t0) / (rect.width - LABEL_W)) * 3;
      for (const l of layout) {
        if (y < l.y || y >= l.y + l.rows * LANE_H) continue;
        const row = Math.floor((y - l.y) / LANE_H);
        for (let i = 0; i < l.lane.calls.length; i++) {
          const bar = l.lane.calls[i];
          if (!bar || l.rowOf[i] !== row) continue;
          if (t >= bar.startMs - slack && t <= bar.endMs + slack) return { bar, lane: l.lane };
        }
      }
      return undefined;
    },
    [layout, timeAt, view],
  );

  // Wheel: zoom around the pointer (a native listener: React's is passive and cannot prevent scrolling).
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !data) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const rect = canvas.getBoundingClientRect();
      setView((v) => {
        if (!v) return v;
        const plotW = rect.width - LABEL_W;
        const at = v.t0 + ((e.clientX - rect.left - LABEL_W) / plotW) * (v.t1 - v.t0);
        const factor = Math.exp((e.deltaY || e.deltaX) * 0.0015);
        const span = Math.max(MIN_SPAN_MS, Math.min((v.t1 - v.t0) * factor, (data.endMs - data.startMs) * 1.2 + 1000));
        const ratio = (at - v.t0) / (v.t1 - v.t0);
        return { t0: at - ratio * span, t1: at - ratio * span + span };
      });
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, [data]);

  const zoom = (factor: number) =>
    setView((v) => {
      if (!v) return v;
      const mid = (v.t0 + v.t1) / 2;
      const span = Math.max(MIN_SPAN_MS, (v.t1 - v.t0) * factor);
      return { t0: mid - span / 2, t1: mid + span / 2 };
    });

  if (error) {
    return (
      <div className="page">
        <div className="err-msg">Could not load the waterfall: {error}</div>
      </div>
    );
  }
  const tools = [...new Set(data?.lanes.flatMap((l) => l.calls.map((c) => c.tool)) ?? [])].sort();
  return (
    <div className="page" data-testid="waterfall-page">
      <div className="page-head">
        <div>
          <div className="crumbs wf-crumbs">
            <a href="#/">Sessions</a>
            <span>/</span>
            <a href={sessionHref(id)}>{id.slice(0, 8)}</a>
            <span>/</span>
            <span>Waterfall</span>
          </div>
          <h1 className="page-title">Waterfall</h1>
          <div className="page-sub">
            {data
              ? `${data.lanes.length} thread${data.lanes.length === 1 ? '' : 's'} · ${totalCalls} calls · ${fmtDuration(data.endMs - data.startMs)}`
              : 'Loading…'}{' '}
            · scroll to zoom, drag to pan, click a call to open it in the timeline
          </div>
        </div>
        <div className="row">
          <button type="button" className="btn small" onClick={() => zoom(0.5)} data-testid="wf-zoom-in">
            Zoom in
          </button>
          <button type="button" className="btn small" onClick={() => zoom(2)}>
            Zoom out
          </button>
          <button
            type="button"
            className="btn small"
            onClick={() => data && setView({ t0: data.startMs, t1: Math.max(data.endMs, data.startMs + MIN_SPAN_MS) })}
          >
            Reset
          </button>
          <a className="btn small" href={sessionHref(id)}>
            Timeline
          </a>
        </div>
      </div>
      <div className="wf-legend">
        <span>
          <i style={{ background: 'rgba(139, 155, 255, 0.8)', height: 3 }} />
          model
        </span>
        <span>
          <i style={{ background: 'rgba(79, 193, 166, 0.35)' }} />
          waiting for you
        </span>
        <span>
          <i style={{ background: 'transparent', outline: '2px solid #ff6b7a' }} />
          error
        </span>
        {tools.slice(0, 16).map((t) => (
          <span key={t}>
            <i style={{ background: toolColour(t) }} />
            {t}
          </span>
        ))}
      </div>
      <div className="wf-box">
        <canvas
          ref={canvasRef}
          className="wf-canvas"
          data-testid="waterfall-canvas"
          data-calls={totalCalls}
          data-lanes={data?.lanes.length ?? 0}
          style={{ height, cursor: hover ? 'pointer' : drag.current ? 'grabbing' : 'grab' }}
          onMouseDown={(e) => {
            if (view) drag.current = { x: e.clientX, view, moved: false };
          }}
          onMouseMove={(e) => {
            const d = drag.current;
            const canvas = canvasRef.current;
            if (d && canvas) {
              const dx = e.clientX - d.x;
              if (Math.abs(dx) > 3) d.moved = true;
              const plotW = canvas.getBoundingClientRect().width - LABEL_W;
              const dt = (dx / plotW) * (d.view.t1 - d.view.t0);
              setView({ t0: d.view.t0 - dt, t1: d.view.t1 - dt });
              return;
            }
            const hit = hitAt(e.clientX, e.clientY);
            if (hit?.bar !== hover?.bar) setHover(hit);
          }}
          onMouseUp={(e) => {
            const d = drag.current;
            drag.current = undefined;
            if (d?.moved) return;
            const hit = hitAt(e.clientX, e.clientY);
            if (hit) window.location.hash = sessionHref(id, hit.bar.id);
          }}
          onMouseLeave={() => {
            drag.current = undefined;
            setHover(undefined);
          }}
        />
        {hover && (
          <div className="wf-tip" data-testid="waterfall-tip">
            <b>{hover.bar.tool}</b> · {hover.bar.status} · {fmtDuration(hover.bar.endMs - hover.bar.startMs)}
            {hover.bar.open ? ' (no result)' : ''} · {hover.lane.key === 'main' ? 'main thread' : hover.lane.label}
          </div>
        )}
      </div>
    </div>
  );
}
