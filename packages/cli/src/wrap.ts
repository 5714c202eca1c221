/** Help text fitted to the terminal: lines longer than its width broken between words. */
import { displayWidth, graphemes } from './display-width.js';

/** A list item's term and the spaces after it (`  --db PATH        `), when the line is one. */
const TERM = /^ +\S.*?\S? {2,}(?=\S)/;

const leadOf = (line: string): number => /^ */.exec(line)?.[0].length ?? 0;

/**
 * `text` fitted to `width` columns: a paragraph (lines of one indent) or a list item (a term, two spaces, then a
 * description whose lines are indented under it) with a line too long is joined and broken again between words,
 * under its own indent; the others are left as written. A word wider than a whole line is broken across lines.
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

/**
 * `head`, then the words of `rest` broken into lines of at most `width` columns; the next lines indented. A word
 * wider than a line (a sentence of Chinese or Japanese, which has no spaces; a long path; a URL) is broken across
 * lines between its characters, nothing of it cut: it was cut to one line with …, and a CJK reply lost most of it.
 */
function breakLine(head: string, rest: string, indent: number, width: number): string[] {
  const out: string[] = [];
  let current = head;
  let currentWidth = widthOf(head);
  let empty = true;
  const full = Math.max(1, width - indent);
  for (const word of rest.split(/ +/)) {
    if (word === '') continue;
    const w = widthOf(word);
    // what is left of the current line after a space; a word that fits no line starts there when 2 columns are
    const left = width - currentWidth - (empty ? 0 : 1);
    const parts = w > full ? piecesToWidth(word, left >= 2 ? left : full, full) : [word];
    parts.forEach((part, k) => {
      const pw = parts.length === 1 ? w : widthOf(part);
      // the first part on the current line: a whole word that fits it, or a broken word's first piece
      const fits = k === 0 && (parts.length > 1 ? left >= 2 : empty || currentWidth + 1 + pw <= width);
      if (fits) {
        current += empty ? part : ` ${part}`;
        currentWidth += empty ? pw : 1 + pw;
      } else {
        out.push(current);
        current = `${' '.repeat(indent)}${part}`;
        currentWidth = indent + pw;
      }
      empty = false;
    });
  }
  out.push(current);
  return out;
}

/**
 * `word` in pieces of whole graphemes: the first at most `first` columns, the others at most `rest`. Colour codes
 * take no column and stay with the text they precede.
 */
function piecesToWidth(word: string, first: number, rest: number): string[] {
  const out: string[] = [];
  let piece = '';
  let pieceWidth = 0;
  let room = first;
  for (const part of word.split(COLOUR_SPLIT)) {
    if (part.startsWith('\u001b')) {
      piece += part;
      continue;
    }
    for (const grapheme of graphemes(part)) {
      const gw = displayWidth(grapheme);
      if (pieceWidth > 0 && pieceWidth + gw > room) {
        out.push(piece);
        piece = '';
        pieceWidth = 0;
        room = rest;
      }
      piece += grapheme;
      pieceWidth += gw;
    }
  }
  if (piece !== '') out.push(piece);
  return out;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the escape of colour codes on purpose
const COLOUR_SPLIT = /(\u001b\[[0-9;]*m)/;
