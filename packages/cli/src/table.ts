import { cutStartToWidth, cutToWidth, displayWidth } from './display-width.js';
import { terminalText } from './io.js';

export interface Column {
  readonly header: string;
  readonly align?: 'left' | 'right';
  /** Cut cells to this many terminal columns (with …) where the table fits a width (not into a pipe without one). */
  readonly max?: number;
  /**
   * To fit the width, cells of this column may be cut down to this many terminal columns (the widest such column
   * first). Without it a column is never cut, except the last one when it is left-aligned (down to 10 columns).
   */
  readonly min?: number;
  /** Where a cut cell loses its text: at the end (default), or at the start (a path keeps its last folders). */
  readonly cut?: 'end' | 'start';
  /**
   * When cutting is not enough, columns with a `drop` rank are left out, the lowest rank first, until the table
   * fits. Columns without one are always shown.
   */
  readonly drop?: number;
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

/** `text` cut to `width` columns where this column cuts. */
function cutFor(column: Column, text: string, width: number): string {
  return column.cut === 'start' ? cutStartToWidth(text, width) : cutToWidth(text, width);
}

/** Columns of the last cell when no `min` is given: it is cut down to this much before anything is left out. */
const LAST_MIN = 10;

/** Terminal columns a line of these widths takes (two spaces between columns). */
const lineWidth = (widths: readonly number[]): number =>
  widths.length === 0 ? 0 : widths.reduce((a, w) => a + w, 0) + 2 * (widths.length - 1);

/**
 * The width of each column shown (undefined: left out) so that a line takes at most `width` columns: the cuttable
 * columns (`min`, and the last one) are cut, the widest first, down to their minimum; then columns are left out by
 * their `drop` rank, and the others cut again from their full width. A width too narrow even for that cuts the text
 * columns left from the last one back, so no line is wider than the terminal (a wrapped line breaks the table) unless
 * its figures alone are: those are never cut.
 */
function fitColumns(columns: readonly Column[], natural: readonly number[], width: number): (number | undefined)[] {
  const droppable = columns
    .map((c, i) => ({ rank: c.drop, i }))
    .filter((d): d is { rank: number; i: number } => d.rank !== undefined)
    .sort((a, b) => a.rank - b.rank || b.i - a.i);
  let kept = columns.map((_, i) => i);
  for (;;) {
    const last = kept[kept.length - 1];
    const floor = (i: number): number => {
      // The last column is cut when it holds text (never a right-aligned number, a cost's "+ ?" included).
      const min = columns[i]?.min ?? (i === last && columns[i]?.align !== 'right' ? LAST_MIN : undefined);
      return Math.min(natural[i] ?? 0, min ?? Number.POSITIVE_INFINITY);
    };
    const widths = kept.map((i) => natural[i] ?? 0);
    let excess = lineWidth(widths) - width;
    while (excess > 0) {
      // The widest column that can still be cut loses one column.
      let widest = -1;
      widths.forEach((w, k) => {
        const i = kept[k] ?? 0;
        if (w > floor(i) && (widest < 0 || w > (widths[widest] ?? 0))) widest = k;
      });
      if (widest < 0) break;
      widths[widest] = (widths[widest] ?? 0) - 1;
      excess -= 1;
    }
    const next = droppable.shift();
    if (excess <= 0 || next === undefined) {
      // Too narrow for every column that must stay: the last text columns are cut further, down to one column each;
      // a figure never (a cost cut to "…" is a wrong answer, a line wider than the terminal only an untidy one).
      for (let k = widths.length - 1; k >= 0 && excess > 0; k--) {
        if (columns[kept[k] ?? 0]?.align === 'right') continue;
        const cut = Math.min(excess, (widths[k] ?? 0) - 1);
        widths[k] = (widths[k] ?? 0) - Math.max(0, cut);
        excess -= Math.max(0, cut);
      }
      const out: (number | undefined)[] = columns.map(() => undefined);
      kept.forEach((i, k) => {
        out[i] = widths[k];
      });
      return out;
    }
    kept = kept.filter((i) => i !== next.i);
  }
}

/**
 * Render rows as an aligned table: two spaces between columns, numbers right-aligned. When `width` is given every
 * line fits it (`fitColumns`: columns cut, then left out). Every cell's text is made terminal-safe (`terminalText`)
 * before it is cut, measured and coloured; it is measured and cut in terminal columns (`displayWidth`: a CJK
 * character or an emoji takes two, a combining mark none), never in UTF-16 units.
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
      // a column's most only where the table fits a width: into a pipe or a file, values are whole (cli-json.md)
      const cut = c.max !== undefined && options.width !== undefined;
      return measured(cut ? cutFor(c, text, c.max ?? 0) : text, typeof cell === 'string' ? plain : cell.style);
    }),
  );
  const header = columns.map((c) => measured(c.header, options.headerStyle ?? plain));
  const natural = columns.map((_, i) => Math.max(header[i]?.width ?? 0, ...cells.map((r) => r[i]?.width ?? 0)));
  const widths = options.width === undefined ? natural : fitColumns(columns, natural, options.width);
  const shown = columns.flatMap((c, i) => {
    const width = widths[i];
    return width === undefined ? [] : [{ column: c, i, width }];
  });
  const fitted = (cell: MeasuredCell | undefined, column: Column, width: number): MeasuredCell => {
    const c = cell ?? { text: '', style: plain, width: 0 };
    return c.width <= width ? c : measured(cutFor(column, c.text, width), c.style);
  };
  const line = (r: readonly MeasuredCell[], isHeader: boolean): string =>
    shown
      .map(({ column, i, width: columnWidth }, k) => {
        const { text, style, width } = fitted(r[i], column, columnWidth);
        const align = column.align ?? 'left';
        const fill = k === shown.length - 1 && align === 'left' ? '' : ' '.repeat(Math.max(0, columnWidth - width));
        // The header is styled with its padding; a cell's colour covers its text only.
        if (isHeader) return style(align === 'right' ? fill + text : text + fill);
        return align === 'right' ? fill + style(text) : style(text) + fill;
      })
      .join('  ')
      .trimEnd();
  return `${[line(header, true), ...cells.map((r) => line(r, false))].join('\n')}\n`;
}
