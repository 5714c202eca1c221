/** Help text fitted to the terminal: lines longer than its width broken between words. */
import { displayWidth } from './display-width.js';

/** A list item's term and the spaces after it (`  --db PATH        `), when the line is one. */
const TERM = /^ +\S.*?\S? {2,}(?=\S)/;

const leadOf = (line: string): number => /^ */.exec(line)?.[0].length ?? 0;

/**
 * `text` fitted to `width` columns: a paragraph (lines of one indent) or a list item (a term, two spaces, then a
 * description whose lines are indented under it) with a line too long is joined and broken again between words,
 * under its own indent; the others are left as written. A word wider than the room stays whole on its own line.
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
    else out.push(...breakLine(block.map((line, k) => (k === 0 ? line : line.trim())).join(' '), hang, width));
    i = end;
  }
  return out.join('\n');
}

/** One long line broken between words: the first keeps its start, the others are indented by `hang`. */
function breakLine(line: string, hang: number, width: number): string[] {
  const indent = hang <= width / 2 ? hang : leadOf(line);
  const head = line.slice(0, indent);
  const out: string[] = [];
  let current = head;
  let currentWidth = displayWidth(head);
  let empty = true;
  for (const word of line.slice(indent).split(/ +/)) {
    if (word === '') continue;
    const w = displayWidth(word);
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
