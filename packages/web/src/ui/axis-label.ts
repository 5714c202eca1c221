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
