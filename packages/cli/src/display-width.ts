/**
 * How many terminal columns text takes, and text cut to a number of columns. A CJK character or an emoji takes two
 * columns, a combining mark none, and a grapheme (é written as e + ◌́, 👍🏽, 🇫🇷, 👨‍👩‍👧) is never split: `.length`
 * counts UTF-16 units, which is right for none of these. The widths are string-width's (Unicode's East Asian Width
 * and emoji data); graphemes are `Intl.Segmenter`'s.
 */
import stringWidth from 'string-width';

/** Printable ASCII only: one column a character, measured without segmenting. */
const ASCII = /^[\u0020-\u007e]*$/;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The graphemes of a text: what a reader sees as one character (a letter and its marks, an emoji sequence). */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** Terminal columns `text` takes (no escape sequence in it: measure before colouring). */
export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  // Escape sequences are shown as symbols before this (terminalText), so none is there to be counted out.
  return stringWidth(text, { countAnsiEscapeCodes: true });
}

/**
 * `text` cut to at most `max` columns, ending with … when cut; whole graphemes only, so neither a surrogate pair
 * nor a letter and its accent are ever parted.
 */
export function cutToWidth(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  const room = Math.max(0, max - 1);
  let width = 0;
  let kept = '';
  for (const grapheme of graphemes(text)) {
    const w = displayWidth(grapheme);
    if (width + w > room) break;
    width += w;
    kept += grapheme;
  }
  return `${kept}…`;
}
