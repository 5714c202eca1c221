/**
 * How many terminal columns text takes, and text cut to a number of columns. A CJK character or an emoji takes two
 * columns, a combining mark none, and a grapheme (é written as e + ◌́, 👍🏽, 🇫🇷, 👨‍👩‍👧) is never split: `.length`
 * counts UTF-16 units, which is right for none of these. The widths are string-width's (Unicode's East Asian Width
 * and emoji data); graphemes are `Intl.Segmenter`'s.
 *
 * Both take more than linear time on a long string in Node 20 (segmenting 8 K characters costs 25 times what 512
 * do, 380 K characters twenty minutes), and transcripts hold pasted logs of megabytes: text is measured in pieces
 * of about `PIECE` characters, cut where a grapheme cannot continue, and a cut stops reading once it is full.
 */
import stringWidth from 'string-width';

/** Printable ASCII only: one column a character, measured without segmenting. */
const ASCII = /^[\u0020-\u007e]*$/;

/** Characters per piece measured at once. */
const PIECE = 256;
/** A piece with no ASCII to end at by then ends where its segmenter says its last grapheme starts. */
const PIECE_MAX = 1024;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The graphemes of a short text: what a reader sees as one character (a letter and its marks, an emoji sequence). */
export function graphemes(text: string): string[] {
  const out: string[] = [];
  for (const piece of pieces(text)) for (const s of segmenter.segment(piece)) out.push(s.segment);
  return out;
}

/**
 * Whether a grapheme surely ends before `text[at]`: it is printable ASCII (which neither joins nor takes a mark
 * before it, and no sequence but CR LF continues into), and the unit before it is neither a zero-width joiner nor a
 * high surrogate.
 */
function endsBefore(text: string, at: number): boolean {
  const next = text.charCodeAt(at);
  const previous = text.charCodeAt(at - 1);
  return next >= 0x20 && next <= 0x7e && previous !== 0x200d && (previous < 0xd800 || previous > 0xdbff);
}

/** `text` in pieces of about `PIECE` characters, each ending where a grapheme does. */
function* pieces(text: string): Generator<string> {
  let start = 0;
  while (text.length - start > PIECE) {
    let end = start + PIECE;
    const limit = Math.min(text.length, start + PIECE_MAX);
    while (end < limit && !endsBefore(text, end)) end += 1;
    if (end === limit && limit < text.length) {
      // No ASCII to end at (Chinese with no Latin, a run of emoji): before the last grapheme the segmenter finds in
      // the longest piece, the one that might go on past it.
      // Not after half a surrogate pair: the segmenter would end the grapheme before it there.
      const whole = (text.charCodeAt(limit - 1) & 0xfc00) === 0xd800 ? limit - 1 : limit;
      let last = 0;
      for (const s of segmenter.segment(text.slice(start, whole))) last = s.index;
      end = last > 0 ? start + last : limit;
    }
    yield text.slice(start, end);
    start = end;
  }
  if (start < text.length) yield text.slice(start);
}

/** Terminal columns `text` takes (no escape sequence in it: measure before colouring). */
export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  let width = 0;
  // Escape sequences are shown as symbols before this (terminalText), so none is there to be counted out.
  for (const piece of pieces(text)) width += stringWidth(piece, { countAnsiEscapeCodes: true });
  return width;
}

/**
 * `text` cut to at most `max` columns, ending with … when cut; whole graphemes only, so neither a surrogate pair
 * nor a letter and its accent are ever parted. Reads no further than `max` columns and one grapheme.
 */
export function cutToWidth(text: string, max: number): string {
  if (ASCII.test(text)) return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
  const room = Math.max(0, max - 1);
  let width = 0;
  let at = 0;
  let cut: number | undefined;
  for (const piece of pieces(text)) {
    for (const { segment } of segmenter.segment(piece)) {
      width += stringWidth(segment, { countAnsiEscapeCodes: true });
      if (cut === undefined && width > room) cut = at;
      if (width > max) return `${text.slice(0, cut)}…`;
      at += segment.length;
    }
  }
  return text;
}
