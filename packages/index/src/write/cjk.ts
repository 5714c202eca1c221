/**
 * Chinese, Japanese and Korean text for the full-text index. FTS5's unicode61 tokenizer splits words at spaces and
 * punctuation only, so a run of Han or kana (no spaces between words) is one token: "数据库" inside
 * "我们的数据库连接失败" was never found. Each CJK character is made a token of its own, in what is given to FTS5
 * only (never in what is shown), and a CJK query term becomes a phrase of its characters, which matches them where
 * they stand next to each other: a substring search, as CJK readers expect, with no dictionary to ship.
 *
 * Hangul syllables too: Korean puts spaces between phrases, but particles and endings are written onto the word
 * ("데이터베이스가", "연결이"), so the word alone was not found either.
 */

/**
 * A run of CJK characters (Han, with 々 and CJK numerals; Hiragana; Katakana, with ー and half-width forms; Hangul),
 * each with the combining marks after it (゛ written apart). By script extension, so that the marks and signs the
 * scripts share count; a letter or digit only (the combining marks Han shares with Latin, U+0305 and U+0323, stay
 * on their Latin letter; CJK punctuation separates tokens already). Checked after the class (a lookbehind), which
 * costs nothing on text without CJK.
 */
const CJK_RUN = /(?:[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}](?<=[\p{L}\p{N}])\p{M}*)+/gu;

/**
 * A quick look before `CJK_RUN`: code units of the blocks every CJK character is in (Hangul Jamo; the CJK radicals to
 * Yi, kana and Han among them; Hangul syllables; compatibility ideographs and forms; half- and full-width forms) and
 * any high surrogate (Han of the supplementary planes). A superset, checked over every code point in cjk.test.ts.
 * Without the `u` flag it is a plain range scan: about a fifth of `CJK_RUN`'s time on text with no CJK, which is
 * nearly all text the index reads.
 */
const MAY_HOLD_CJK =
  /[\u1100-\u11ff\u2e80-\ua4cf\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\ud800-\udbff]/;

/** Whether the text may hold a CJK character (never false when it does). */
export function mayHoldCjk(text: string): boolean {
  return MAY_HOLD_CJK.test(text);
}

/** One character with its combining marks. */
const CHARACTER = /\P{M}\p{M}*/gu;

/** The characters of a CJK run. */
function charactersOf(run: string): string[] {
  return run.match(CHARACTER) ?? [];
}

/**
 * The text as FTS5 gets it: each CJK character between spaces, so that unicode61 makes it a token of its own.
 * A replacement per run, not per character: one call of the replacer for a whole run of CJK characters costs far less
 * than one call per character.
 */
export function spaceCjk(text: string): string {
  const spaced = mayHoldCjk(text) ? text.replace(CJK_RUN, (run) => ` ${charactersOf(run).join(' ')} `) : text;
  if (!MAY_HOLD_SEA.test(spaced)) return spaced;
  return spaced.replace(
    SEA_RUN,
    (run) =>
      ` ${seaWordsOf(run)
        .map((w) => w.text)
        .join(' ')} `,
  );
}

/**
 * Thai, Lao, Myanmar and Khmer: written without spaces between words, so a sentence was one token and a word inside
 * it was never found (`ฐานข้อมูล` in `ฐานข้อมูลเชื่อมต่อไม่ได้`; a review). Their runs are cut into words by ICU's
 * dictionaries (`Intl.Segmenter`), in what FTS5 gets and in a query alike, so a word is found where it stands.
 */
const MAY_HOLD_SEA = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]/;
const SEA_RUN = /[\p{scx=Thai}\p{scx=Lao}\p{scx=Myanmar}\p{scx=Khmer}]+/gu;

/** Whether a word may hold Thai, Lao, Myanmar or Khmer (never false when it does). */
export function mayHoldSea(text: string): boolean {
  return MAY_HOLD_SEA.test(text);
}

let wordSegmenter: Intl.Segmenter | undefined;
/** The words of a run of those scripts, each with where it starts in the run (white space left out). */
function seaWordsOf(run: string): { text: string; index: number }[] {
  wordSegmenter ??= new Intl.Segmenter('th', { granularity: 'word' });
  const words: { text: string; index: number }[] = [];
  for (const s of wordSegmenter.segment(run))
    if (s.segment.trim() !== '') words.push({ text: s.segment, index: s.index });
  return words;
}

export interface Piece {
  readonly text: string;
  /** Where the piece starts in the word. */
  readonly index: number;
  /** A CJK character (FTS5 folds no case or mark of these: compare them as they are). */
  readonly cjk: boolean;
}

/**
 * A word (a run of letters and digits, as unicode61 reads it) cut into the tokens FTS5 gets from `spaceCjk`: each
 * CJK character, and each stretch between them.
 */
export function cjkPieces(word: string): Piece[] {
  const pieces: Piece[] = [];
  let cursor = 0;
  for (const run of word.matchAll(CJK_RUN)) {
    if (run.index > cursor) pieces.push({ text: word.slice(cursor, run.index), index: cursor, cjk: false });
    let at = run.index;
    for (const character of charactersOf(run[0])) {
      pieces.push({ text: character, index: at, cjk: true });
      at += character.length;
    }
    cursor = at;
  }
  if (cursor < word.length) pieces.push({ text: word.slice(cursor), index: cursor, cjk: false });
  return MAY_HOLD_SEA.test(word) ? pieces.flatMap(seaPieces) : pieces;
}

/** A piece cut at the words of its Thai, Lao, Myanmar or Khmer runs, as `spaceCjk` cuts them. */
function seaPieces(piece: Piece): Piece[] {
  if (piece.cjk || !MAY_HOLD_SEA.test(piece.text)) return [piece];
  const out: Piece[] = [];
  let cursor = 0;
  const stretch = (end: number) => {
    if (end > cursor) out.push({ text: piece.text.slice(cursor, end), index: piece.index + cursor, cjk: false });
  };
  for (const run of piece.text.matchAll(SEA_RUN)) {
    stretch(run.index);
    for (const w of seaWordsOf(run[0]))
      out.push({ text: w.text, index: piece.index + run.index + w.index, cjk: false });
    cursor = run.index + run[0].length;
  }
  stretch(piece.text.length);
  return out;
}
