/**
 * A chart axis's label cut to the room the axis has (SVG text is not cut by CSS: a long one runs off the card's
 * edge). Paths lose their start (`…/worktrees/feature`), names their end (`mcp__server__a_ve…`).
 */

/** Average width of a character of the axes' 12 px text, generous so that wide letters fit too. */
const CHAR_PX = 7;

export function fitLabel(text: string, widthPx: number, cut: 'start' | 'end'): string {
  const room = Math.max(4, Math.floor((widthPx - 12) / CHAR_PX));
  if (text.length <= room) return text;
  return cut === 'start' ? `…${text.slice(text.length - room + 1)}` : `${text.slice(0, room - 1)}…`;
}

/** The most decimals a cost tick is shown with. */
const MAX_DECIMALS = 12;

/** The decimals a cost tick is shown with: none when it is whole dollars, else at least cents, more for fractions of one. */
function decimalsOf(value: number): number {
  for (let d = 0; d < MAX_DECIMALS; d++) {
    const scaled = value * 10 ** d;
    // Whole but for floating-point error, which grows with the number (not a fixed amount: a tick of a ten-millionth
    // of a dollar would count as whole dollars and an axis read "$0 $0 $0").
    if (Math.abs(scaled - Math.round(scaled)) <= 1e-9 * Math.max(1, Math.abs(scaled)))
      return d === 0 ? 0 : Math.max(2, d);
  }
  return MAX_DECIMALS;
}

/**
 * The labels of one cost axis, all in one format: whole dollars when every tick is (`$9 $18 $27 $36`), else each
 * with the decimals the finest tick needs, cents at least (`$0.00 $2.50 $5.00`). Per tick, `$9.00` stood beside `$18`.
 */
export function costTickFormat(ticks: readonly number[]): (value: number) => string {
  const decimals = Math.max(0, ...ticks.map(decimalsOf));
  return (value) => `$${value.toFixed(decimals)}`;
}
