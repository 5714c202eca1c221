import { isRecord } from '../../internal/guards.js';
import { capDepth } from '../../internal/json-depth.js';
import { type ByteSource, openFileBytes, type ReadLinesOptions } from '../../io/read-lines.js';
import type { ReadEntries, SessionEntry } from './read-jsonl.js';

/**
 * Largest JSON document read (default). The older client rewrites the whole session as one document on every
 * update, so it is parsed whole; a document above this size is not read and is reported as `line_too_long`
 * (memory would be several times its size). JSONL sessions have no such limit beyond the per-line one.
 */
export const MAX_GEMINI_DOCUMENT_BYTES = 256 * 1024 * 1024;

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/**
 * Read a 0.20-style session document (`{sessionId, projectHash, startTime, lastUpdated, messages[]}`, rewritten in
 * place). A document whose text ends before the JSON does is taken to be mid-rewrite: nothing is read and its bytes
 * are held back (`pendingBytes`), as for an unfinished JSONL line. Never throws on bad data.
 */
export async function readJsonEntries(
  file: string,
  options: ReadLinesOptions & { readonly maxDocumentBytes?: number } = {},
): Promise<ReadEntries> {
  const max = options.maxDocumentBytes ?? options.maxLineBytes ?? MAX_GEMINI_DOCUMENT_BYTES;
  const entries: SessionEntry[] = [];
  const source = await (options.open ?? openFileBytes)(file);
  const chunks: Buffer[] = [];
  let size = 0;
  let tooBig = false;
  try {
    for (;;) {
      const buffer = Buffer.alloc(1024 * 1024);
      const { bytesRead } = await source.read(buffer, 0, buffer.length, size);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > max) {
        // Not read: its length is found with a few one-byte reads instead of a pass over the rest.
        tooBig = true;
        size = await sourceLength(source, size);
        break;
      }
      chunks.push(buffer.subarray(0, bytesRead));
    }
  } finally {
    await source.close();
  }
  const done = (pendingBytes: number) => ({
    entries,
    end: { nextOffset: size - pendingBytes, nextLine: 1, pendingBytes, bytesRead: size },
  });
  if (tooBig) {
    entries.push({
      kind: 'issue',
      issue: {
        code: 'line_too_long',
        file,
        line: 1,
        message: `session document of ${size} bytes is over the ${max}-byte limit; not read`,
      },
    });
    return done(0);
  }
  const bytes = Buffer.concat(chunks);
  let text: string;
  try {
    text = fatal.decode(bytes);
  } catch {
    text = lenient.decode(bytes);
    entries.push({ kind: 'issue', issue: { code: 'invalid_utf8', file, line: 0, message: 'invalid UTF-8 replaced' } });
  }
  const trimmed = text.trimEnd();
  if (trimmed === '') return done(0);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // The text stops before the document does: the client is rewriting it. Read it again once it is whole.
    const at = /position (\d+)/.exec(reason)?.[1];
    if (/end of JSON input/i.test(reason) || (at !== undefined && Number(at) >= trimmed.length)) return done(size);
    entries.push({ kind: 'issue', issue: { code: 'invalid_json', file, line: 1, message: `invalid JSON: ${reason}` } });
    return done(0);
  }
  const capped = capDepth(parsed);
  if (capped.replaced > 0) {
    entries.push({
      kind: 'issue',
      issue: { code: 'too_deep', file, line: 1, message: `${capped.replaced} part(s) nested too deep kept as text` },
    });
  }
  const doc = capped.value;
  const lines = lineFinder(text);
  if (!isRecord(doc)) {
    entries.push({ kind: 'other', value: doc, loc: { file, line: 1, offset: 0 }, bytes: size });
    return done(0);
  }
  entries.push({ kind: 'header', value: doc, loc: { file, line: 1, offset: 0 }, bytes: size });
  const messages = Array.isArray(doc.messages) ? doc.messages : [];
  for (const message of messages) {
    const loc = { file, ...lines(isRecord(message) ? message.id : undefined) };
    if (isRecord(message) && typeof message.type === 'string') {
      entries.push({ kind: 'message', value: message, loc, bytes: 0, superseded: [] });
    } else entries.push({ kind: 'other', value: message, loc, bytes: 0 });
  }
  return { ...done(0), end: { nextOffset: size, nextLine: countLines(text) + 1, pendingBytes: 0, bytesRead: size } };
}

/**
 * Where each message starts, for source locations: the line and character offset of its `"id": "<id>"`, searched
 * forward from the previous message (messages are in order), so the whole walk is linear.
 */
function lineFinder(text: string): (id: unknown) => { line: number; offset: number } {
  let position = 0;
  let line = 1;
  let offset = 0;
  return (id) => {
    if (typeof id !== 'string') return { line, offset };
    const at = text.indexOf(JSON.stringify(id), position);
    if (at < 0) return { line, offset };
    for (let i = position; i < at; i += 1) if (text.charCodeAt(i) === 10) line += 1;
    offset += Buffer.byteLength(text.slice(position, at));
    position = at;
    return { line, offset };
  };
}

function countLines(text: string): number {
  let n = 1;
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) n += 1;
  return n;
}

/**
 * The number of bytes of a source known to hold at least `known`: the end is bracketed by doubling steps, then
 * halved, with one-byte reads (a few dozen for any size).
 */
async function sourceLength(source: ByteSource, known: number): Promise<number> {
  const probe = Buffer.alloc(1);
  const holds = async (length: number) => (await source.read(probe, 0, 1, length - 1)).bytesRead > 0;
  // The length is at least `low` and less than `high`.
  let low = known;
  let step = 1024 * 1024;
  let high = low + step;
  while (await holds(high)) {
    low = high;
    step *= 2;
    high = low + step;
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (await holds(middle)) low = middle;
    else high = middle;
  }
  return low;
}
