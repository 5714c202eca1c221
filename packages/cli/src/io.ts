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

// The rules for control characters in text shown or written for people are core's (present/visible-controls.ts).
export { documentLines, terminalLines, terminalText } from '@agentdash/core/present';
