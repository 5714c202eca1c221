import { MARK_ALPHA, type ToolMark } from '../../ui/tool-palette';

/** Space between two stripes, in CSS pixels (as `markBackground` draws a legend swatch). */
const STRIPE_STEP = 5;

/**
 * A tool's mark (`toolStyles`) over its bar's rectangle: stripes in `ink` (the label's ink, so they stand out on the
 * bar as the label does). The caller leaves the label's part of the bar out, so its text stays on plain colour.
 */
export function drawMark(
  ctx: CanvasRenderingContext2D,
  mark: ToolMark,
  rect: { readonly x: number; readonly y: number; readonly w: number; readonly h: number },
  ink: string,
): void {
  if (mark === 'solid' || rect.w <= 0 || rect.h <= 0) return;
  const { x, y, w, h } = rect;
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, w, h);
  ctx.clip();
  ctx.strokeStyle = ink;
  ctx.globalAlpha = MARK_ALPHA;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  for (let s = x - h; s < x + w; s += STRIPE_STEP) {
    if (mark !== 'back-stripes') {
      ctx.moveTo(s, y + h);
      ctx.lineTo(s + h, y);
    }
    if (mark !== 'stripes') {
      ctx.moveTo(s, y);
      ctx.lineTo(s + h, y + h);
    }
  }
  ctx.stroke();
  ctx.restore();
}
