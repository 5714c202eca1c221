import { homedir } from 'node:os';
import type { StoredOutput } from '@agentdash/index/warm';
import picocolors from 'picocolors';

type Colors = ReturnType<typeof picocolors.createColors>;

export type { Colors };

/** A writable text stream (process.stdout, or a buffer in tests): strings, or text as UTF-8 bytes. */
export interface TextOut {
  write(text: string | Uint8Array): unknown;
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
}

/** Everything a command touches outside itself: streams, environment, home folder, clock. */
export interface CliIo {
  readonly stdout: TextOut;
  readonly stderr: TextOut;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homedir: string;
  readonly now: () => number;
  /** All of standard input when it is piped (not a terminal); undefined otherwise. */
  readonly readStdin?: () => Promise<string | undefined>;
}

/**
 * A stored output written out as it is decompressed, each piece in the buffer of the one before while the stream
 * keeps none of them (`writableLength` 0 once written; a stream that does not tell gets a new buffer each time). A
 * pipe is made blocking first: else Node writes what the pipe takes at once and queues the rest of the piece.
 */
export function writeStored(out: TextOut, stored: StoredOutput): void {
  const stream = out as TextOut & {
    readonly writableLength?: number;
    readonly destroyed?: boolean;
    readonly _handle?: { setBlocking?(on: boolean): number };
  };
  stream._handle?.setBlocking?.(true);
  for (const piece of stored.pieces(() => stream.writableLength === 0)) {
    // A closed pipe (`| head`): the rest is not decompressed.
    if (stream.destroyed === true) return;
    out.write(piece);
  }
}

/** Standard input when it is piped, else undefined (a terminal is never waited on). */
async function readProcessStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    homedir: homedir(),
    now: Date.now,
    readStdin: readProcessStdin,
  };
}

/**
 * The terminal columns output may take: `COLUMNS` when it is set (a positive number), else the terminal's width when
 * stdout is one, else none: piped output keeps whole values for the next program (`--json` for scripts).
 */
export function outputWidth(io: Pick<CliIo, 'env' | 'stdout'>): number | undefined {
  const env = io.env.COLUMNS;
  if (env !== undefined && /^\d+$/.test(env) && Number(env) > 0) return Number(env);
  return io.stdout.isTTY === true && io.stdout.columns !== undefined && io.stdout.columns > 0
    ? io.stdout.columns
    : undefined;
}

/** Colour only on a TTY, unless NO_COLOR / FORCE_COLOR say otherwise. */
export function colorsFor(out: TextOut, env: CliIo['env']): Colors {
  let enabled = out.isTTY === true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') enabled = false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') enabled = true;
  return picocolors.createColors(enabled);
}

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
