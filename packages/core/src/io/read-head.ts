import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/**
 * The start of a file as text: at most `maxBytes`, read in chunks of up to 64 KiB, stopping after the first line
 * when `firstLine` is set (the line is returned without its newline). Undefined when the file cannot be opened or
 * read, or is empty. Never throws.
 */
export async function readHead(
  path: string,
  maxBytes: number,
  { firstLine = false }: { readonly firstLine?: boolean } = {},
): Promise<string | undefined> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const buffer = Buffer.alloc(Math.min(maxBytes, 64 * 1024));
    const parts: Buffer[] = [];
    for (let position = 0; position < maxBytes; ) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, maxBytes - position), position);
      if (bytesRead === 0) break;
      const chunk = Buffer.from(buffer.subarray(0, bytesRead));
      position += bytesRead;
      const newline = firstLine ? chunk.indexOf(10) : -1;
      parts.push(newline >= 0 ? chunk.subarray(0, newline) : chunk);
      if (newline >= 0) break;
    }
    const text = Buffer.concat(parts).toString('utf8');
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Bytes read at a time by `findInHead`: most files say what is looked for in their first record. */
const FIND_CHUNK = 16 * 1024;

/**
 * The buffer `findInHead` reads into, for every file in turn (it is synchronous and keeps only decoded text): a new
 * one per file allocated, and collected, a buffer for each of the thousands of agent files of a large home.
 */
let findBuffer: Buffer | undefined;

/**
 * The first match of `pattern` in the start of a file (at most `maxBytes`), read synchronously a chunk at a time and
 * no further than the match: discovery asks this of thousands of files, where thread-pool round trips and reading
 * whole heads cost more than the reads themselves. The pattern must not match across a line break (it is tried on
 * the text read so far, decoded as UTF-8; its `g` and `y` flags are ignored). Undefined when there is no match, or the
 * file cannot be read. Never throws.
 */
export function findInHead(path: string, maxBytes: number, pattern: RegExp): RegExpExecArray | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    // Each chunk is decoded once (a character split between chunks waits for the next), and tried from the last line
    // break before it: a match cannot span a line break, so nothing before that can start one now.
    const decoder = new StringDecoder('utf8');
    // Global (not sticky): tried from `lastIndex` on, wherever the match starts.
    const global = new RegExp(pattern.source, `${pattern.flags.replace(/[gy]/g, '')}g`);
    findBuffer ??= Buffer.allocUnsafe(FIND_CHUNK);
    const chunk = findBuffer.subarray(0, Math.min(FIND_CHUNK, maxBytes));
    let text = '';
    let bytes = 0;
    while (bytes < maxBytes) {
      const bytesRead = readSync(fd, chunk, 0, Math.min(chunk.length, maxBytes - bytes), bytes);
      if (bytesRead === 0) break;
      bytes += bytesRead;
      global.lastIndex = text.lastIndexOf('\n') + 1;
      text += decoder.write(chunk.subarray(0, bytesRead));
      const match = global.exec(text);
      if (match) return match;
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Closing a descriptor we opened does not fail in practice; nothing to report if it does.
    }
  }
}
