/**
 * Terminal control text out of log text shown on a page. Logs hold what terminals printed: colours (SGR), but also
 * hyperlinks (OSC 8), window titles (OSC 0), cursor moves, erases, bells, carriage returns and C1 controls, which a
 * page would show as boxes and stray `[2J`s. Colours are kept where the caller renders them (`Ansi`); the rest goes,
 * the text they carry (a hyperlink's words) stays. No sequence may hide text after it: one that is never ended
 * stops at its line's end.
 */
/* biome-ignore-all lint/suspicious/noControlCharactersInRegex: these patterns match control characters on purpose */

/**
 * String sequences: OSC (title, hyperlink), DCS, SOS, PM, APC, in their ESC and one-byte C1 forms, ended by BEL,
 * ESC \ or ST (U+009C), or else by the end of their line (an unended one must not swallow the rest of the text).
 */
const STRING_SEQUENCE =
  /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c\n]*(?:\u0007|\u001b\\|\u009c)?/g;
/** CSI sequences other than SGR (`m`): cursor moves, erases, modes; also their one-byte C1 form (U+009B). */
const CSI_NOT_SGR = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-ln-~]/g;
/** SGR in its one-byte C1 form, which the colour parser does not read. */
const C1_SGR = /\u009b[0-?]*[ -/]*m/g;
/** SGR (colours, bold…). */
const SGR = /\u001b\[[0-?]*[ -/]*m/g;
/** Any other escape: ESC and the one character after it (ESC c, ESC 7, ESC ( B …), unless that ends the line. */
const TWO_CHAR_ESCAPE = /\u001b(?!\[)[^\n\u001b]?/g;
/** An ESC left without a sequence after it (an unfinished CSI). */
const LONE_ESC = /\u001b(?!\[[0-?]*[ -/]*m)/g;
/** Control characters other than ESC, newline and tab. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f]/g;

/** Carriage returns as line ends (a progress line rewritten in place reads as its successive states). */
const lineEnds = (text: string): string => text.replace(/\r\n?/g, '\n');

/** Whether a text holds any control character but newline and tab (most log text does not: it is left as it is). */
export const hasControls = (text: string): boolean => /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text);

/**
 * The text with every control sequence but colours (SGR: `ESC [ … m`) taken out, and every other control character
 * but newline and tab removed: for a colour parser to read.
 */
export function keepColours(text: string): string {
  return lineEnds(text)
    .replace(STRING_SEQUENCE, '')
    .replace(TWO_CHAR_ESCAPE, '')
    .replace(CSI_NOT_SGR, '')
    .replace(C1_SGR, '')
    .replace(LONE_ESC, '')
    .replace(CONTROLS, '');
}

/** The text with every control sequence, colours too, and every control character but newline and tab taken out. */
export function plainText(text: string): string {
  // most log text holds none: returned as it is, not scanned by every pattern (find runs this over each string)
  if (!hasControls(text)) return text;
  return keepColours(text)
    .replace(SGR, '')
    .replace(/\u001b/g, '');
}
