import { contrastRatio, over, parseCssColor } from '../../ui/contrast';

/** A bar as drawn: its colour, at `alpha` over `backdrop` (the canvas's background). */
export interface BarPaint {
  readonly fill: string;
  readonly alpha: number;
  readonly backdrop: string;
}

/**
 * The colour of a label written on a bar: of `inks` (the theme's text and background colours: one dark, one light),
 * the one that stands out most against the bar as drawn. The theme's background alone was white on the light
 * theme's pastel bars (1.3:1 on `Agent`). An ink or bar colour it cannot read counts as no contrast; with none
 * readable, the first ink.
 */
export function barInk(bar: BarPaint, inks: readonly string[]): string {
  const fill = parseCssColor(bar.fill);
  const backdrop = parseCssColor(bar.backdrop);
  if (!fill) return inks[0] ?? '#000000';
  const seen = backdrop && bar.alpha < 1 ? over(fill, bar.alpha, backdrop) : fill;
  let best = inks[0] ?? '#000000';
  let bestRatio = 0;
  for (const ink of inks) {
    const rgb = parseCssColor(ink);
    const ratio = rgb ? contrastRatio(rgb, seen) : 0;
    if (ratio > bestRatio) {
      best = ink;
      bestRatio = ratio;
    }
  }
  return best;
}

/**
 * What a bar's label (written from its start) is drawn on: the bar's colour at the alpha it has there; for a call
 * the client measured, its run where the run starts under the label, else the permission wait the call began with
 * (a band of its own colour, drawn over the faint inferred span).
 */
export function labelGround(
  bar: { readonly fill: string; readonly open: boolean },
  measured: { readonly runStartsUnderLabel: boolean; readonly waited: boolean } | undefined,
  waitColour: string,
): { readonly fill: string; readonly alpha: number } {
  if (measured === undefined) return { fill: bar.fill, alpha: bar.open ? 0.45 : 1 };
  if (measured.runStartsUnderLabel) return { fill: bar.fill, alpha: 1 };
  return measured.waited ? { fill: waitColour, alpha: 0.95 } : { fill: bar.fill, alpha: 0.28 };
}
