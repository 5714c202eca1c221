/** Help text fitted to the terminal: lines longer than its width broken between words. */
import { cutToWidth, displayWidth } from './display-width.js';

/** A list item's term and the spaces after it (`  --db PATH        `), when the line is one. */
const TERM = /^ +\S.*?\S? {2,}(?=\S)/;

const leadOf = (line: string): number => /^ */.exec(line)?.[0].length ?? 0;

/**
 * `text` fitted to `width` columns: a paragraph (lines of one indent) or a list item (a term, two spaces, then a
 * description whose lines are indented under it) with a line too long is joined and broken again between words,
 * under its own indent; the others are left as written. A word wider than a whole line is cut to fit it.
 * Without a width, the text as it is.
 */
export function wrapToWidth(text: string, width: number | undefined): string {
  if (width === undefined) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    const first = lines[i] ?? '';
    const term = TERM.exec(first)?.[0];
    const hang = term?.length ?? leadOf(first);
    let end = i + 1;
    while (first.trim() !== '' && end < lines.length) {
      const next = lines[end] ?? '';
      if (next.trim() === '' || leadOf(next) !== hang || TERM.test(next)) break;
      end += 1;
    }
    const block = lines.slice(i, end);
    if (block.every((line) => displayWidth(line) <= width)) out.push(...block);
    else {
      const line = block.map((l, k) => (k === 0 ? l : l.trim())).join(' ');
      const indent = hang <= width / 2 ? hang : leadOf(line);
      out.push(...breakLine(line.slice(0, indent), line.slice(indent), indent, width));
    }
    i = end;
  }
  return out.join('\n');
}

/** The CLI's own colour codes take no column. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the escape of colour codes on purpose
const COLOUR = /\u001b\[[0-9;]*m/g;
const widthOf = (text: string): number => displayWidth(text.includes('\u001b') ? text.replace(COLOUR, '') : text);

/**
 * Lines of a timeline fitted to `width` columns: a longer line is broken between words after its `prefixOf(line)`
 * (its time and mark), which its next lines are indented by. Without a width, the text as it is.
 */
export function wrapLines(text: string, width: number | undefined, prefixOf: (line: string) => string): string {
  if (width === undefined) return text;
  return text
    .split('\n')
    .flatMap((line) => {
      if (widthOf(line) <= width) return [line];
      const prefix = prefixOf(line);
      const indent = widthOf(prefix);
      return indent <= width / 2
        ? breakLine(prefix, line.slice(prefix.length), indent, width)
        : breakLine('', line, 0, width);
    })
    .join('\n');
}

/** `head`, then the words of `rest` broken into lines of at most `width` columns; the next lines indented. */
function breakLine(head: string, rest: string, indent: number, width: number): string[] {
  const out: string[] = [];
  let current = head;
  let currentWidth = widthOf(head);
  let empty = true;
  for (const whole of rest.split(/ +/)) {
    if (whole === '') continue;
    // A word wider than a line (a long path, a URL) is cut to one: no line is ever wider.
    const room = width - (empty ? currentWidth : indent);
    const word = widthOf(whole) > room && !whole.includes('\u001b') ? cutToWidth(whole, Math.max(1, room)) : whole;
    const w = widthOf(word);
    if (!empty && currentWidth + 1 + w > width) {
      out.push(current);
      current = `${' '.repeat(indent)}${word}`;
      currentWidth = indent + w;
    } else {
      current += empty ? word : ` ${word}`;
      currentWidth += empty ? w : 1 + w;
    }
    empty = false;
  }
  out.push(current);
  return out;
}
