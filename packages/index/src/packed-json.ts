/**
 * Tool inputs and results are stored as JSON text, deflated when long (`calls.input`, `results.content`,
 * `results.tool_use_result`): they are read back only to classify, summarise and pair calls, and the transcript
 * itself is in the archive, so the index keeps them as small as it can (issue 8: store content once).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** JSON texts shorter than this stay plain text (compressing them saves little or nothing). */
const PLAIN_BELOW = 200;

/** The stored form of a JSON value: its text, or the deflated bytes of a long text. */
export function packJson(value: unknown): string | Buffer {
  const text = JSON.stringify(value) ?? 'null';
  if (text.length < PLAIN_BELOW) return text;
  return deflateRawSync(Buffer.from(text, 'utf8'), { level: 1 });
}

/** The value of a stored form: plain JSON text, or deflated JSON bytes. */
export function unpackJson(stored: string | Buffer | Uint8Array): unknown {
  return JSON.parse(typeof stored === 'string' ? stored : inflateRawSync(stored).toString('utf8'));
}
