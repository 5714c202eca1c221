/**
 * The waterfall's canvas drawing: time axis, one lane per thread, bars coloured by tool (theme colours). A call the
 * client measured (telemetry) is drawn as its measured parts, the permission wait then the run (solid), over its
 * inferred call → result span (faint, dashed).
 */
import type { WaterfallBar, WaterfallResponse } from '../../data/types';
import { cssColor } from '../../ui/theme';
import { BAND_RGB, chartTools, paletteFor, toolStyles } from '../../ui/tool-palette';
import { fitText, LANE_H, labelWidth, laneLayout, TOP } from '../../ui/waterfall-geometry';
import { barInk, labelGround } from './bar-ink';
import { drawMark } from './marks';
import { type MeasuredCalls, measuredCount, measuredParts, WAIT_COLOUR } from './measured';

export interface View {
  readonly t0: number;
  readonly t1: number;
}

export const MIN_SPAN_MS = 50;

/** The steps of the time axis, in ms: a tick every step of these from the start of the view. */
const STEPS = [
  10, 50, 100, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000,
  3_600_000, 7_200_000, 21_600_000, 86_400_000, 604_800_000, 2_592_000_000,
];

/**
 * A tick's label, as precise as its step: to the millisecond under a second, to the second under a minute, hours and
 * minutes under a day, else the date.
 */
function tickLabel(t: number, step: number): string {
  const d = new Date(t);
  const clock = d.toLocaleTimeString('en-GB', { hour12: false });
  if (step < 1000) return `${clock}.${String(d.getMilliseconds()).padStart(3, '0')}`;
  if (step < 60_000) return clock;
  return step < 86_400_000 ? clock.slice(0, 5) : d.toLocaleDateString('en-GB');
}

/**
 * The time axis: grid lines and labels, the ticks 90 px apart on a wide plot, and closer on a narrow one (a phone's
 * plot is under 200 px: 90 px left it one label, which tells no scale), never closer than a label's width.
 */
export function drawAxis(ctx: CanvasRenderingContext2D, view: View, width: number, height: number): void {
  const span = view.t1 - view.t0;
  const labelW = labelWidth(width);
  const plotW = width - labelW;
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  const wanted = Math.min(90, plotW / 3);
  const gapOf = (s: number) => (s / span) * plotW;
  const step =
    STEPS.find((s) => gapOf(s) >= Math.max(wanted, ctx.measureText(tickLabel(view.t0, s)).width + 12)) ??
    (STEPS.at(-1) as number);
  const first = Math.ceil(view.t0 / step) * step;
  // Where the last label written ends: a label that would touch it is left out (spans past the largest step).
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (let t = first; t <= view.t1; t += step) {
    const x = labelW + ((t - view.t0) / span) * plotW;
    ctx.strokeStyle = cssColor('--chart-grid', '#222836');
    ctx.beginPath();
    ctx.moveTo(x + 0.5, TOP - 4);
    ctx.lineTo(x + 0.5, height);
    ctx.stroke();
    ctx.fillStyle = cssColor('--muted', '#737c91');
    const label = tickLabel(t, step);
    const w = ctx.measureText(label).width;
    // Right of its line; one that would run past the right edge ends at its line instead (cut, it read as another
    // time), and is left out when that would touch the label before it or the lanes' names.
    const at = x + 3 + w <= width ? x + 3 : x - 3 - w;
    if (at >= labelW && at >= lastEnd + 6) {
      ctx.fillText(label, at, TOP / 2);
      lastEnd = at + w;
    }
  }
}

/** The idle band's opacity over the waterfall's ground. */
const IDLE_ALPHA = 0.45;

export function draw(
  canvas: HTMLCanvasElement,
  data: WaterfallResponse,
  view: View,
  hover: WaterfallBar | undefined,
  measured?: MeasuredCalls,
): void {
  const dpr = window.devicePixelRatio || 1;
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  const span = view.t1 - view.t0;
  const labelW = labelWidth(width);
  const plotW = width - labelW;
  const x = (t: number) => labelW + ((t - view.t0) / span) * plotW;
  drawAxis(ctx, view, width, height);
  const layout = laneLayout(data.lanes);
  ctx.save();
  ctx.beginPath();
  ctx.rect(labelW, 0, plotW, height);
  ctx.clip();
  const inks = [cssColor('--bg', '#0d0f14'), cssColor('--text', '#e6e9f0')];
  const backdrop = cssColor('--wf-bg', '#141821');
  // idle as the time bars draw it (styles.css `--tb-idle`), lighter: a band behind the calls
  const idleBand = cssColor('--tb-idle', '#3a4154');
  const unrecordedInk = cssColor('--muted', '#737c91');
  const styles = toolStyles(chartTools(data.lanes), paletteFor(backdrop));
  const toolColour = (tool: string) => styles.get(tool)?.colour ?? cssColor('--muted', '#737c91');
  for (const { lane, y, rows, rowOf } of layout) {
    const laneH = rows * LANE_H;
    // waits for the person, idle stretches, then the model's turns, as bands behind the calls
    const band = (list: readonly { startMs: number; endMs: number }[]) => {
      for (const u of list) {
        if (u.endMs < view.t0 || u.startMs > view.t1) continue;
        ctx.fillRect(x(u.startMs), y, Math.max(1, x(u.endMs) - x(u.startMs)), laneH);
      }
    };
    ctx.fillStyle = `rgba(${BAND_RGB.waitingForYou}, 0.16)`;
    band(lane.user);
    ctx.fillStyle = idleBand;
    ctx.globalAlpha = IDLE_ALPHA;
    band(lane.idle);
    ctx.globalAlpha = 1;
    // time no record covers: stripes (the legend's swatch), the partition's count of it in its tip
    for (const u of lane.unrecorded) {
      if (u.endMs < view.t0 || u.startMs > view.t1) continue;
      const ux = x(u.startMs);
      drawMark(ctx, 'stripes', { x: ux, y, w: Math.max(1, x(u.endMs) - ux), h: laneH }, unrecordedInk);
    }
    ctx.fillStyle = `rgba(${BAND_RGB.model}, 0.55)`;
    for (const m of lane.model) {
      if (m.endMs < view.t0 || m.startMs > view.t1) continue;
      ctx.fillRect(x(m.startMs), y + laneH - 4, Math.max(1, x(m.endMs) - x(m.startMs)), 3);
    }
    lane.calls.forEach((bar, i) => {
      if (bar.endMs < view.t0 || bar.startMs > view.t1) return;
      const row = rowOf[i] ?? 0;
      const bx = x(bar.startMs);
      const bw = Math.max(2, x(bar.endMs) - bx);
      const by = y + row * LANE_H + 4;
      ctx.fillStyle = toolColour(bar.tool);
      ctx.font = '11px system-ui, sans-serif';
      const label = bw > 48 ? fitText(bar.tool, bw - 8, (t) => ctx.measureText(t).width) : undefined;
      // a tool past the palette's first round: stripes over its bar, after its label
      const mark = (from: number, to: number) => {
        const start = Math.max(from, label === undefined ? bx : bx + 8 + ctx.measureText(label).width);
        const style = styles.get(bar.tool);
        if (style && style.mark !== 'solid') {
          const ink = barInk({ fill: style.colour, alpha: 1, backdrop }, inks);
          drawMark(ctx, style.mark, { x: start, y: by, w: to - start, h: LANE_H - 10 }, ink);
        }
      };
      const m = measured?.[bar.id];
      // what the label is written on: the bar, faint when no result came; a measured call's run or wait
      let ground = labelGround({ fill: toolColour(bar.tool), open: bar.open }, undefined, WAIT_COLOUR);
      if (m) {
        // the inferred span faint and dashed; the measured wait and run over it
        ctx.globalAlpha = 0.28;
        ctx.fillRect(bx, by, bw, LANE_H - 10);
        ctx.globalAlpha = 0.8;
        ctx.strokeStyle = toolColour(bar.tool);
        ctx.lineWidth = 1;
        ctx.setLineDash([3, 3]);
        ctx.strokeRect(bx + 0.5, by + 0.5, bw - 1, LANE_H - 11);
        ctx.setLineDash([]);
        ctx.globalAlpha = 1;
        const parts = measuredParts(bar, m);
        ground = labelGround(
          { fill: toolColour(bar.tool), open: bar.open },
          { runStartsUnderLabel: x(parts.runStartMs) <= bx + 4, waited: parts.waitEndMs > parts.waitStartMs },
          WAIT_COLOUR,
        );
        if (parts.waitEndMs > parts.waitStartMs) {
          ctx.fillStyle = WAIT_COLOUR;
          ctx.fillRect(
            x(parts.waitStartMs),
            by + 3,
            Math.max(1, x(parts.waitEndMs) - x(parts.waitStartMs)),
            LANE_H - 16,
          );
        }
        ctx.fillStyle = toolColour(bar.tool);
        const runW = Math.max(2, x(parts.runEndMs) - x(parts.runStartMs));
        ctx.fillRect(x(parts.runStartMs), by, runW, LANE_H - 10);
        mark(x(parts.runStartMs), x(parts.runStartMs) + runW);
      } else {
        ctx.globalAlpha = bar.open ? 0.45 : 1;
        ctx.fillRect(bx, by, bw, LANE_H - 10);
        ctx.globalAlpha = 1;
        mark(bx, bx + bw);
      }
      if (bar.status === 'error') {
        // an expected error (part of normal work) in the muted colour its badge has, not as an error
        ctx.strokeStyle = bar.expected ? cssColor('--exp', '#8e97aa') : cssColor('--err', '#ff6b7a');
        ctx.lineWidth = 2;
        ctx.strokeRect(bx + 1, by + 1, bw - 2, LANE_H - 12);
      }
      if (bar === hover) {
        ctx.strokeStyle = cssColor('--text', '#ffffff');
        ctx.lineWidth = 1.5;
        ctx.strokeRect(bx - 1, by - 1, bw + 2, LANE_H - 8);
      }
      if (label !== undefined) {
        ctx.fillStyle = barInk({ ...ground, backdrop }, inks);
        ctx.textBaseline = 'middle';
        ctx.fillText(label, bx + 4, by + (LANE_H - 10) / 2);
      }
    });
  }
  ctx.restore();
  // lane labels and separators; what they say is the canvas's accessible name too
  ctx.font = '12px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  const names: string[] = [];
  const fit = (text: string) => fitText(text, labelW - 16, (t) => ctx.measureText(t).width);
  for (const { lane, y, rows } of layout) {
    ctx.strokeStyle = cssColor('--chart-grid', '#222836');
    ctx.beginPath();
    ctx.moveTo(0, y + rows * LANE_H + 0.5);
    ctx.lineTo(width, y + rows * LANE_H + 0.5);
    ctx.stroke();
    ctx.fillStyle = lane.key === 'main' ? cssColor('--text', '#e6e9f0') : cssColor('--text-2', '#aab1c2');
    const name = fit(lane.key === 'main' ? 'main thread' : `↳ ${lane.label}`);
    ctx.fillText(name, 8, y + LANE_H / 2);
    ctx.fillStyle = cssColor('--muted', '#737c91');
    ctx.font = '11px system-ui, sans-serif';
    const calls = `${lane.calls.length} call${lane.calls.length === 1 ? '' : 's'}${lane.background ? ' · background' : ''}`;
    ctx.fillText(fit(calls), 8, y + LANE_H / 2 + 14);
    ctx.font = '12px system-ui, sans-serif';
    names.push(`${name}: ${calls}`);
  }
  const measuredCalls = measuredCount(
    data.lanes.flatMap((l) => l.calls),
    measured,
  );
  const source = measured
    ? `; ${measuredCalls} call${measuredCalls === 1 ? '' : 's'} drawn as measured by telemetry, the rest inferred`
    : '';
  canvas.setAttribute('aria-label', `Waterfall lanes: ${names.join('; ')}${source}`);
}
