import { homedir } from 'node:os';
import picocolors from 'picocolors';

type Colors = ReturnType<typeof picocolors.createColors>;

export type { Colors };

/** A writable text stream (process.stdout, or a buffer in tests). */
export interface TextOut {
  write(text: string): unknown;
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

/** Colour only on a TTY, unless NO_COLOR / FORCE_COLOR say otherwise. */
export function colorsFor(out: TextOut, env: CliIo['env']): Colors {
  let enabled = out.isTTY === true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') enabled = false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') enabled = true;
  return picocolors.createColors(enabled);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escapes on purpose
const ANSI = /\u001b\[[0-9;]*m/g;

/** Visible width of a string (ANSI colour codes do not count). */
export function visibleLength(text: string): number {
  return [...text.replace(ANSI, '')].length;
}
