import { cutToWidth, displayWidth } from './display-width.js';
import { terminalText } from './io.js';

export interface Column {
  readonly header: string;
  readonly align?: 'left' | 'right';
  /** Cut cells to this many terminal columns (with …). */
  readonly max?: number;
}

/** A cell's text, with the style (colour) it is shown in. */
export interface StyledCell {
  readonly text: string;
  readonly style: (text: string) => string;
}

/**
 * A table cell: its text (data, often from a transcript), or its text and a colour. The table makes the text safe
 * for the terminal and cuts it before colouring it, so data can neither carry escapes through nor be cut inside the
 * CLI's own colour codes.
 */
export type Cell = string | StyledCell;

/** A cell made safe and cut, with the terminal columns it takes. */
interface MeasuredCell extends StyledCell {
  readonly width: number;
}

/** A cell of `text` shown in `style`. */
export const styled = (text: string, style: (text: string) => string): Cell => ({ text, style });

const plain = (text: string): string => text;

/**
 * Render rows as an aligned table: two spaces between columns, numbers right-aligned. When `width` is given the
 * last column is cut so each line fits. Every cell's text is made terminal-safe (`terminalText`) before it is cut,
 * measured and coloured; it is measured and cut in terminal columns (`displayWidth`: a CJK character or an emoji
 * takes two, a combining mark none), never in UTF-16 units.
 */
export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly Cell[])[],
  options: { readonly width?: number | undefined; readonly headerStyle?: (s: string) => string } = {},
): string {
  // Each cell measured once (a non-ASCII text is segmented to be measured): its width goes with it.
  const measured = (text: string, style: (text: string) => string): MeasuredCell => ({
    text,
    style,
    width: displayWidth(text),
  });
  const cells = rows.map((row) =>
    columns.map((c, i) => {
      const cell = row[i] ?? '';
      const text = terminalText(typeof cell === 'string' ? cell : cell.text);
      return measured(c.max ? cutToWidth(text, c.max) : text, typeof cell === 'string' ? plain : cell.style);
    }),
  );
  const header = columns.map((c) => measured(c.header, options.headerStyle ?? plain));
  const widths = columns.map((_, i) => Math.max(header[i]?.width ?? 0, ...cells.map((r) => r[i]?.width ?? 0)));
  if (options.width !== undefined && widths.length > 0) {
    const fixed = widths.slice(0, -1).reduce((a, w) => a + w + 2, 0);
    const room = Math.max(10, options.width - fixed);
    const lastIndex = widths.length - 1;
    if ((widths[lastIndex] ?? 0) > room) {
      widths[lastIndex] = room;
      for (const r of cells) {
        const last = r[lastIndex];
        if (last) r[lastIndex] = measured(cutToWidth(last.text, room), last.style);
      }
    }
  }
  const line = (r: readonly MeasuredCell[], header: boolean): string =>
    columns
      .map((c, i) => {
        const { text, style, width } = r[i] ?? { text: '', style: plain, width: 0 };
        const align = c.align ?? 'left';
        const fill =
          i === columns.length - 1 && align === 'left' ? '' : ' '.repeat(Math.max(0, (widths[i] ?? 0) - width));
        // The header is styled with its padding; a cell's colour covers its text only.
        if (header) return style(align === 'right' ? fill + text : text + fill);
        return align === 'right' ? fill + style(text) : style(text) + fill;
      })
      .join('  ')
      .trimEnd();
  return `${[line(header, true), ...cells.map((r) => line(r, false))].join('\n')}\n`;
}
