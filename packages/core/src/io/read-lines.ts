import { open } from 'node:fs/promises';
import type { ParseIssue } from '../model/issue.js';

/**
 * Where a transcript's bytes come from: a file on disk (`fs/promises` `FileHandle` has this shape) or another store,
 * such as the index's compressed archive of a file that is gone. A read may return fewer bytes than asked; 0 is the
 * end.
 */
export interface ByteSource {
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
  /** When the bytes were last written (a file's mtime); a store that has no such time leaves it out. */
  stat?(): Promise<{ readonly mtimeMs: number }>;
}

/** Opens the bytes of a transcript path. */
export type OpenBytes = (path: string) => Promise<ByteSource>;

/** The default `OpenBytes`: the file on disk. */
export const openFileBytes: OpenBytes = (path) => open(path, 'r');

export interface ReadLinesOptions {
  /** Where the bytes come from (default: the file on disk). */
  readonly open?: OpenBytes;
  /** Byte offset to start at (the `nextOffset` of an earlier read). Default 0. */
  readonly startOffset?: number;
  /** Line number of the line at `startOffset`. Default 1. */
  readonly startLine?: number;
  /** Lines longer than this are skipped with a `line_too_long` issue (default 128 MiB). */
  readonly maxLineBytes?: number;
  /** Read buffer size (default 1 MiB). */
  readonly chunkBytes?: number;
}

export type LineEvent =
  | {
      readonly kind: 'line';
      readonly text: string;
      /** 1-based line number. */
      readonly line: number;
      /** Byte offset of the start of the line. */
      readonly offset: number;
    }
  | { readonly kind: 'issue'; readonly issue: ParseIssue };

/**
 * How long (ms) after its last write a file that ends mid-record may still be being written. Within it, the bytes
 * of an unfinished record are held back (`pendingBytes`) for a later read, silently; a file that still ends
 * mid-record after it was left alone this long is not being written: the cut record is reported, not held back
 * unseen forever.
 */
export const WRITE_SETTLE_MS = 5_000;

/**
 * Whether bytes last written at `modifiedMs` may still be being written: under `WRITE_SETTLE_MS` ago, or not known.
 * A time further ahead than that is a clock's error (another machine's, a `touch -d`), not a write going on: were it
 * taken as one, the file would be looked at again by every command until the clock caught up.
 */
export function mayStillBeWritten(modifiedMs: number | undefined, nowMs = Date.now()): boolean {
  return modifiedMs === undefined || Math.abs(nowMs - modifiedMs) < WRITE_SETTLE_MS;
}

/** Where a read stopped: resume from `nextOffset`/`nextLine` once the file grows. */
export interface ReadEnd {
  readonly nextOffset: number;
  readonly nextLine: number;
  /** Bytes of an incomplete last line held back for a later read (the writer may still be writing it). */
  readonly pendingBytes: number;
  readonly bytesRead: number;
  /**
   * True when the held-back bytes were written less than `WRITE_SETTLE_MS` ago and not reported: read the file
   * again later even if it does not change, to report them once they are left alone.
   */
  readonly stillWriting?: boolean;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * The read buffer of the last read that finished, for the next one of the same size: a fresh buffer per file is
 * memory outside the heap that V8 counts towards its next full collection, and reading many small files one after
 * another ran one every few dozen files. Nothing read is kept in it after a read ends (a line spanning reads is
 * copied, lines are decoded), and a read takes it, so two reads at once never share it.
 */
let spare: Buffer | undefined;

/**
 * Stream the lines of a JSONL file without ever holding the whole file in memory.
 *
 * - CRLF and a UTF-8 BOM are tolerated; blank lines are skipped.
 * - Invalid UTF-8 is replaced (U+FFFD) and reported as an `invalid_utf8` issue; the line is still returned.
 * - An unterminated last line is returned only if it is complete JSON; otherwise its bytes are held back
 *   (`pendingBytes`) and `nextOffset` points at its start, so a later read picks it up once it is finished. When
 *   the source says it was last written `WRITE_SETTLE_MS` ago or more (`ByteSource.stat`), the writer stopped
 *   mid-record: an `invalid_json` issue reports it (its bytes are still held back, read if it is finished later);
 *   else it is held back silently and the end says so (`stillWriting`). A tail over `maxLineBytes` is held and
 *   reported alike (`line_too_long`, as it is once finished). Bytes that follow an unterminated line returned as
 *   complete JSON wait for their newline the same way; left alone, they are reported at that line and skipped.
 *
 * @example
 * const end = await readLines(file, (event) => { if (event.kind === 'line') handle(event.text) });
 */
export async function readLines(
  file: string,
  onEvent: (event: LineEvent) => void,
  options: ReadLinesOptions = {},
): Promise<ReadEnd> {
  const startOffset = options.startOffset ?? 0;
  const maxLineBytes = options.maxLineBytes ?? 128 * 1024 * 1024;
  const chunkBytes = options.chunkBytes ?? 1024 * 1024;
  let lineNo = options.startLine ?? 1;

  const handle = await (options.open ?? openFileBytes)(file);
  try {
    const buffer = spare?.length === chunkBytes ? spare : Buffer.allocUnsafe(chunkBytes);
    if (buffer === spare) spare = undefined;
    let position = startOffset;
    // Parts of the current (unfinished) line, and where it started.
    let parts: Buffer[] = [];
    let partsBytes = 0;
    let lineStart = startOffset;
    let skippingLongLine = false;

    const emitLine = (bytes: Buffer, offset: number, terminated: boolean): boolean => {
      let end = bytes.length;
      if (terminated && end > 0 && bytes[end - 1] === CR) end -= 1;
      let start = 0;
      if (offset === 0 && end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
      const slice = bytes.subarray(start, end);
      if (isBlank(slice)) return true;
      let text: string;
      let invalidUtf8 = false;
      try {
        text = fatalDecoder.decode(slice);
      } catch {
        // An unfinished line cut inside a multi-byte character is held back, not decoded (issue 13).
        if (!terminated && endsInsideCharacter(slice)) return false;
        text = lenientDecoder.decode(slice);
        invalidUtf8 = true;
      }
      // An unfinished line is taken only when it is complete JSON, or holds a NUL byte (it can never become JSON:
      // reported now rather than held back unseen forever).
      if (!terminated && !isCompleteJson(text) && !slice.includes(0)) return false;
      if (invalidUtf8) {
        onEvent({
          kind: 'issue',
          issue: {
            code: 'invalid_utf8',
            file,
            line: lineNo,
            message: 'line contains invalid UTF-8; bad bytes were replaced with U+FFFD',
          },
        });
      }
      onEvent({ kind: 'line', text, line: lineNo, offset });
      return true;
    };

    // A read that resumes right after an unterminated line it already returned (the byte before is not a newline):
    // the bytes up to the next newline end that line. They are not a new line, so line numbers stay those of a
    // batch read of the finished file.
    let continuesLine = startOffset > 0 && (await byteAt(handle, startOffset - 1)) !== NEWLINE;

    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, position);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      let cursor = 0;
      while (cursor < bytesRead) {
        const nl = chunk.indexOf(NEWLINE, cursor);
        if (nl === -1) {
          const rest = chunk.subarray(cursor);
          if (!skippingLongLine) {
            if (partsBytes + rest.length > maxLineBytes) {
              skippingLongLine = true;
              parts = [];
              partsBytes = 0;
            } else {
              parts.push(Buffer.from(rest));
              partsBytes += rest.length;
            }
          }
          cursor = bytesRead;
          break;
        }
        const piece = chunk.subarray(cursor, nl);
        if (continuesLine) {
          continuesLine = false;
          const rest = partsBytes === 0 ? piece : Buffer.concat([...parts, piece]);
          if (!isBlank(rest)) {
            onEvent({
              kind: 'issue',
              issue: {
                code: 'invalid_json',
                file,
                line: lineNo - 1,
                message: `line went on (${rest.length} bytes) after it was read as complete JSON; the rest was skipped`,
              },
            });
          }
          parts = [];
          partsBytes = 0;
          skippingLongLine = false;
          cursor = nl + 1;
          lineStart = position + cursor;
          continue;
        }
        if (skippingLongLine || partsBytes + piece.length > maxLineBytes) {
          onEvent({
            kind: 'issue',
            issue: {
              code: 'line_too_long',
              file,
              line: lineNo,
              message: `line is longer than ${maxLineBytes} bytes and was skipped`,
            },
          });
        } else {
          const bytes = partsBytes === 0 ? piece : Buffer.concat([...parts, piece]);
          emitLine(bytes, lineStart, true);
        }
        parts = [];
        partsBytes = 0;
        skippingLongLine = false;
        cursor = nl + 1;
        lineNo += 1;
        lineStart = position + cursor;
      }
      position += bytesRead;
    }

    let pendingBytes = 0;
    let nextOffset = position;
    let nextLine = lineNo;
    let stillWriting = false;
    const tailBytes = position - lineStart;
    // The unterminated tail is held back for a later read; `report` is what is said of it once its writer has left it
    // alone, and `skip` whether it is then passed over (it can never be read) rather than still held.
    let held: { readonly report: ParseIssue; readonly skip: boolean } | undefined;
    if (continuesLine && tailBytes > 0) {
      // More of the unterminated line already returned: wait for its newline. Blank bytes (a CR before its LF) are
      // harmless; others can never make that line anything but one that went on after its JSON.
      pendingBytes = tailBytes;
      nextOffset = lineStart;
      if (skippingLongLine || !isBlank(Buffer.concat(parts)))
        held = { report: wentOnIssue(file, lineNo - 1, tailBytes), skip: true };
    } else if (skippingLongLine) {
      pendingBytes = tailBytes;
      nextOffset = lineStart;
      held = { report: longTailIssue(file, lineNo, maxLineBytes, tailBytes), skip: false };
    } else if (partsBytes > 0) {
      const bytes = Buffer.concat(parts);
      if (emitLine(bytes, lineStart, false)) {
        nextLine = lineNo + 1;
      } else {
        pendingBytes = bytes.length;
        nextOffset = lineStart;
        held = { report: cutLineIssue(file, lineNo, bytes.length), skip: false };
      }
    }
    if (held !== undefined) {
      stillWriting = mayStillBeWritten(await modifiedMsOf(handle));
      if (!stillWriting) onEvent({ kind: 'issue', issue: held.report });
      if (!stillWriting && held.skip) {
        pendingBytes = 0;
        nextOffset = position;
      }
    }
    spare = buffer;
    const end = { nextOffset, nextLine, pendingBytes, bytesRead: position - startOffset };
    return stillWriting ? { ...end, stillWriting } : end;
  } finally {
    await handle.close();
  }
}

/** When the source was last written, if it says (a file that vanished meanwhile: not known). */
export async function modifiedMsOf(handle: ByteSource): Promise<number | undefined> {
  return handle.stat?.().then(
    (info) => info.mtimeMs,
    () => undefined,
  );
}

/** A last line the writer left unfinished: its bytes are held back, and read if the line is finished later. */
function cutLineIssue(file: string, line: number, bytes: number): ParseIssue {
  return {
    code: 'invalid_json',
    file,
    line,
    message:
      `the last line ends before its record does (${bytes} bytes) and has not been written to for ` +
      `${WRITE_SETTLE_MS / 1000} s or more; it is read if it is finished later`,
  };
}

/** An unterminated last line over the length limit, left alone: skipped, as it is once its newline comes. */
function longTailIssue(file: string, line: number, maxLineBytes: number, bytes: number): ParseIssue {
  return {
    code: 'line_too_long',
    file,
    line,
    message:
      `the last line is longer than ${maxLineBytes} bytes (${bytes} so far) and was skipped; it has no newline and ` +
      `has not been written to for ${WRITE_SETTLE_MS / 1000} s or more`,
  };
}

/** Bytes without a newline after a line read as complete JSON, left alone: skipped, not held back unseen forever. */
function wentOnIssue(file: string, line: number, bytes: number): ParseIssue {
  return {
    code: 'invalid_json',
    file,
    line,
    message:
      `line went on (${bytes} bytes) after it was read as complete JSON, with no newline, and has not been written ` +
      `to for ${WRITE_SETTLE_MS / 1000} s or more; the rest was skipped`,
  };
}

async function byteAt(handle: ByteSource, offset: number): Promise<number | undefined> {
  const one = Buffer.alloc(1);
  const { bytesRead } = await handle.read(one, 0, 1, offset);
  return bytesRead === 1 ? one[0] : undefined;
}

/** True when the bytes end with the start of a multi-byte UTF-8 character whose other bytes are still to come. */
export function endsInsideCharacter(bytes: Uint8Array): boolean {
  // Look back over at most 3 continuation bytes (10xxxxxx) to the lead byte of the last character.
  for (let back = 1; back <= 4 && back <= bytes.length; back += 1) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back;
  }
  return false;
}

function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== CR) return false;
  }
  return true;
}

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
