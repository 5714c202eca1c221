/**
 * How many terminal columns text takes, and text cut to a number of columns. A CJK character or an emoji takes two
 * columns, a combining mark none, and a grapheme (é written as e + ◌́, 👍🏽, 🇫🇷, 👨‍👩‍👧) is never split: `.length`
 * counts UTF-16 units, which is right for none of these. Hand-written over Unicode's East Asian Width data and emoji
 * properties: string-width 8 does the same, but importing it builds its emoji data and a segmenter at load, at the
 * start of every command, for text that is nearly always ASCII.
 *
 * Segmenting takes more than linear time on a long string in Node 20, and transcripts hold pasted logs of megabytes:
 * text is measured in pieces of about `PIECE` characters, cut where a grapheme cannot continue, and a cut stops
 * reading once it is full.
 */
/**
 * Code points of East Asian Width W (wide) or F (fullwidth) that are not emoji (emoji are told by their own
 * property below): Hangul Jamo leading consonants, CJK radicals and punctuation, kana, Bopomofo, Hangul syllables,
 * CJK ideographs and their extensions, Yi, compatibility and vertical forms, fullwidth forms, Tangut, Khitan, Nüshu,
 * kana supplements, enclosed ideographs. Sorted, not overlapping (searched by halves).
 */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2329, 0x232a],
  [0x2e80, 0x2e99],
  [0x2e9b, 0x2ef3],
  [0x2f00, 0x2fd5],
  [0x2ff0, 0x303e],
  [0x3041, 0x3096],
  [0x3099, 0x30ff],
  [0x3105, 0x312f],
  [0x3131, 0x318e],
  [0x3190, 0x31e5],
  [0x31ef, 0x321e],
  [0x3220, 0x3247],
  [0x3250, 0xa48c],
  [0xa490, 0xa4c6],
  [0xa960, 0xa97c],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe52],
  [0xfe54, 0xfe66],
  [0xfe68, 0xfe6b],
  [0xff01, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x16ff0, 0x16ff1],
  [0x17000, 0x187f7],
  [0x18800, 0x18cd5],
  [0x18d00, 0x18d08],
  [0x1aff0, 0x1affe],
  [0x1b000, 0x1b2fb],
  [0x1f200, 0x1f202],
  [0x1f210, 0x1f23b],
  [0x1f240, 0x1f248],
  [0x1f250, 0x1f251],
  [0x1f260, 0x1f265],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

function isWide(code: number): boolean {
  let low = 0;
  let high = WIDE.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const [start, end] = WIDE[mid] ?? [0, -1];
    if (code < start) high = mid - 1;
    else if (code > end) low = mid + 1;
    else return true;
  }
  return false;
}

/** An emoji shown as one: presented as emoji by default (👍, 🇫🇷), or asked to be by U+FE0F (❤️). */
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F/u;
/** What takes no column of its own: combining marks, zero-width and other invisible format characters, controls. */
const ZERO_WIDTH = /^[\p{Mark}\p{Default_Ignorable_Code_Point}\p{Cc}]$/u;
/** Columns one grapheme takes: 2 for an emoji or a wide character, 0 for marks alone, else 1. */
function graphemeWidth(grapheme: string): number {
  if (EMOJI.test(grapheme)) return 2;
  const first = grapheme.codePointAt(0) ?? 0;
  if (ZERO_WIDTH.test(String.fromCodePoint(first))) return 0;
  return isWide(first) ? 2 : 1;
}

/** Printable ASCII only: one column a character, measured without segmenting. */
const ASCII = /^[\u0020-\u007e]*$/;

/** Characters per piece measured at once. */
const PIECE = 256;
/** A piece with no ASCII to end at by then ends where its segmenter says its last grapheme starts. */
const PIECE_MAX = 1024;

/** Made at first use: making one is not free, and a command that prints only ASCII need not pay for it. */
let graphemeSegmenter: Intl.Segmenter | undefined;
function segmentsOf(text: string): Intl.Segments {
  graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return graphemeSegmenter.segment(text);
}

/** The graphemes of a short text: what a reader sees as one character (a letter and its marks, an emoji sequence). */
export function graphemes(text: string): string[] {
  const out: string[] = [];
  for (const piece of pieces(text)) for (const s of segmentsOf(piece)) out.push(s.segment);
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
      for (const s of segmentsOf(text.slice(start, whole))) last = s.index;
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
  for (const piece of pieces(text))
    for (const { segment: grapheme } of segmentsOf(piece)) width += graphemeWidth(grapheme);
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
    for (const { segment: grapheme } of segmentsOf(piece)) {
      width += graphemeWidth(grapheme);
      if (cut === undefined && width > room) cut = at;
      if (width > max) return `${text.slice(0, cut)}…`;
      at += grapheme.length;
    }
  }
  return text;
}

/**
 * `text` cut to at most `max` columns by its start, beginning with … when cut (a path keeps its last folders);
 * whole graphemes only.
 */
export function cutStartToWidth(text: string, max: number): string {
  if (ASCII.test(text)) return text.length <= max ? text : `…${text.slice(text.length - Math.max(0, max - 1))}`;
  if (displayWidth(text) <= max) return text;
  const parts = graphemes(text);
  let width = 0;
  let at = parts.length;
  while (at > 0 && width + graphemeWidth(parts[at - 1] ?? '') <= max - 1) {
    at -= 1;
    width += graphemeWidth(parts[at] ?? '');
  }
  return `…${parts.slice(at).join('')}`;
}
