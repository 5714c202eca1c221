/**
 * Terminal control text out of log text shown on a page. Logs hold what terminals printed: colours (SGR), but also
 * hyperlinks (OSC 8), window titles (OSC 0), cursor moves, erases, bells, carriage returns and C1 controls, which a
 * page would show as boxes and stray `[2J`s. Colours are kept where the caller renders them (`Ansi`); the rest goes,
 * the text they carry (a hyperlink's words) stays.
 */
/* biome-ignore-all lint/suspicious/noControlCharactersInRegex: these patterns match control characters on purpose */

/** OSC: ESC ] … ended by BEL or ESC \ (or never ended: to the end of the text). */
const OSC = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\|$)/g;
/** CSI sequences other than SGR (`m`): cursor moves, erases, modes. Also their one-byte C1 form (U+009B). */
const CSI_NOT_SGR = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-ln-~]/g;
/** SGR (colours, bold…) in its one-byte C1 form, which the colour parser does not read. */
const C1_SGR = /\u009b[0-?]*[ -/]*m/g;
/** Any other escape: ESC and the one character after it (ESC c, ESC 7, ESC ( B …), or a lone ESC at the end. */
const OTHER_ESCAPE = /\u001b(?:[^[]|$)/g;
/** Control characters left after the sequences are out, but newline and tab. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f]/g;

/** Carriage returns as line ends (a progress line rewritten in place reads as its successive states). */
const lineEnds = (text: string): string => text.replace(/\r\n?/g, '\n');

/**
 * The text with every control sequence but colours (SGR: `ESC [ … m`) taken out, and stray control characters
 * removed (newline and tab kept): for a colour parser to read.
 */
export function keepColours(text: string): string {
  return lineEnds(text)
    .replace(OSC, '')
    .replace(CSI_NOT_SGR, '')
    .replace(C1_SGR, '')
    .replace(/\u001b(?!\[)(?:.|$)/g, '')
    .replace(CONTROLS, '');
}

/** The text with every control sequence, colours too, and every control character but newline and tab taken out. */
export function plainText(text: string): string {
  return keepColours(text)
    .replace(/\u001b\[[0-?]*[ -/]*m/g, '')
    .replace(OTHER_ESCAPE, '')
    .replace(/\u001b/g, '');
}
