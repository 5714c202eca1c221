import { visibleLength } from './io.js';

export interface Column {
  readonly header: string;
  readonly align?: 'left' | 'right';
  /** Cut cells to this visible width (with …). */
  readonly max?: number;
}

function cut(text: string, max: number): string {
  if (visibleLength(text) <= max) return text;
  // Cells that are cut are plain text (colour is applied after cutting by callers that colour).
  const chars = [...text];
  return `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - visibleLength(text)));
  return align === 'right' ? fill + text : text + fill;
}

/**
 * Render rows as an aligned table: two spaces between columns, numbers right-aligned. When `width` is given the
 * last column is cut so each line fits.
 */
export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  options: { readonly width?: number | undefined; readonly headerStyle?: (s: string) => string } = {},
): string {
  const cells = rows.map((row) => columns.map((c, i) => (c.max ? cut(row[i] ?? '', c.max) : (row[i] ?? ''))));
  const widths = columns.map((c, i) =>
    Math.max(visibleLength(c.header), ...cells.map((r) => visibleLength(r[i] ?? ''))),
  );
  if (options.width !== undefined && widths.length > 0) {
    const fixed = widths.slice(0, -1).reduce((a, w) => a + w + 2, 0);
    const room = Math.max(10, options.width - fixed);
    const lastIndex = widths.length - 1;
    if ((widths[lastIndex] ?? 0) > room) {
      widths[lastIndex] = room;
      for (const r of cells) r[lastIndex] = cut(r[lastIndex] ?? '', room);
    }
  }
  const style = options.headerStyle ?? ((s: string) => s);
  const line = (r: readonly string[], header: boolean): string =>
    columns
      .map((c, i) => {
        const w = widths[i] ?? 0;
        const last = i === columns.length - 1;
        const text = last && (c.align ?? 'left') === 'left' ? (r[i] ?? '') : pad(r[i] ?? '', w, c.align ?? 'left');
        return header ? style(text) : text;
      })
      .join('  ')
      .trimEnd();
  return (
    [
      line(
        columns.map((c) => c.header),
        true,
      ),
      ...cells.map((r) => line(r, false)),
    ].join('\n') + '\n'
  );
}
