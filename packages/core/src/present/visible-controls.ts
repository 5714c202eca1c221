/**
 * Control characters of a transcript's text kept off a terminal and out of a document for people: shown as symbols,
 * one character for one. The one rule for the CLI's output and the Markdown export (the CLI's and the dashboard's).
 * @module
 */

/**
 * C0, DEL and C1 controls, and the bidirectional formatting characters (U+061C, U+200E–U+200F, U+202A–U+202E,
 * U+2066–U+2069): an override in a title reorders what the terminal shows after it ("Trojan Source").
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters on purpose
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** `CONTROL` but the line feed and the tab (`documentLines`). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters on purpose
const CONTROL_BUT_LF_TAB = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** `CONTROL` but the line feed (`terminalLines`). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters on purpose
const CONTROL_BUT_LF = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * What a control character is shown as: whitespace as a space, C0 and DEL as their symbol (␛, ␇, ␈, ␀), C1 and the
 * bidirectional formatting characters as �.
 */
function visibleControl(char: string): string {
  const code = char.charCodeAt(0);
  if (code >= 0x09 && code <= 0x0d) return ' ';
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  return code === 0x7f ? '\u2421' : '\ufffd';
}

/**
 * Text from a transcript made safe to print on a terminal, as one line: no control character reaches the terminal
 * (an escape sequence in a prompt or a tool's output could clear the screen or retitle the window). Tabs, line
 * breaks and carriage returns become spaces; other C0 controls and DEL their visible symbol; C1 controls �. One
 * character for one: cutting the text before or after gives the same result, so no cut can leave half an escape.
 * Apply it to the data, before colouring (the CLI's own colours are added after).
 *
 * @example terminalText('\u001b]0;PWNED\u0007 hi') // '␛]0;PWNED␇ hi'
 */
export function terminalText(text: string): string {
  return text.replace(CONTROL, visibleControl);
}

/**
 * Text made safe for a terminal with its lines kept: each line as `terminalText` makes it, the line feeds between
 * them left as they are (a whole document, such as an export, stays readable). One character for one, so text cut
 * into pieces anywhere gives the same result piece by piece.
 */
export function terminalLines(text: string): string {
  return text.replace(CONTROL_BUT_LF, visibleControl);
}

/**
 * A document for people to read (a Markdown export) with no control character in it, written to a file too: a
 * reader's `cat` or pager would run an escape sequence a transcript holds (retitle the window, clear the screen, a
 * hidden link). As `terminalLines`, but tabs are kept; one character for one.
 */
export function documentLines(text: string): string {
  return text.replace(CONTROL_BUT_LF_TAB, visibleControl);
}
