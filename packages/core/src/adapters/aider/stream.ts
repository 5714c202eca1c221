import { dirname } from 'node:path';
import { openFileBytes, type ReadEnd, type ReadLinesOptions } from '../../io/read-lines.js';
import { readWhole } from '../../io/read-whole.js';
import type { RecordEvent } from '../../model/raw.js';
import { AiderDecoder } from './decode.js';
import { aiderSessionId } from './discover.js';

/** Larger histories are reported, not read (a history is text a person read along; 64 MiB is far beyond one). */
const MAX_BYTES = 64 * 1024 * 1024;

/**
 * Read a history whole (a run's edits wait for their outcome lines further down, so the file is read from its start
 * on every change). A last line without its line end is held back: Aider may still be writing it.
 */
export async function streamAiderRecords(
  path: string,
  onEvent: (event: RecordEvent) => void,
  options: ReadLinesOptions = {},
): Promise<ReadEnd> {
  const whole = await readWhole(options.open ?? openFileBytes, path, MAX_BYTES);
  if (whole.overLimit) {
    onEvent({
      kind: 'issue',
      issue: { code: 'unreadable_file', file: path, line: 0, message: `${whole.size} bytes: too large, not read` },
    });
    return { nextOffset: 0, nextLine: 1, pendingBytes: 0, bytesRead: 0 };
  }
  let bytes = whole.bytes;
  const cut = bytes.lastIndexOf(0x0a) + 1;
  const pending = bytes.length - cut;
  if (pending > 0) bytes = bytes.subarray(0, cut);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    onEvent({
      kind: 'issue',
      issue: { code: 'invalid_utf8', file: path, line: 0, message: 'bytes that are not UTF-8 replaced' },
    });
    text = bytes.toString('utf8');
  }
  const decoder = new AiderDecoder(path, aiderSessionId(path), dirname(path));
  decoder.decode(text, onEvent);
  const lines = text === '' ? 0 : text.split('\n').length - 1;
  return { nextOffset: cut, nextLine: lines + 1, pendingBytes: pending, bytesRead: cut };
}
