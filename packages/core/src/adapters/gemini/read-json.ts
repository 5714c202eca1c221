import { messageOf } from '../../errors.js';
import { isRecord } from '../../internal/guards.js';
import { capDepth } from '../../internal/json-depth.js';
import { mayStillBeWritten, openFileBytes, type ReadLinesOptions, WRITE_SETTLE_MS } from '../../io/read-lines.js';
import { readWhole } from '../../io/read-whole.js';
import type { ReadEntries, SessionEntry } from './read-jsonl.js';

/**
 * Largest JSON document read (default). The older client rewrites the whole session as one document on every
 * update, so it is parsed whole; a document above this size is not read and is reported as `line_too_long`
 * (memory would be several times its size). JSONL sessions have no such limit beyond the per-line one.
 */
export const MAX_GEMINI_DOCUMENT_BYTES = 256 * 1024 * 1024;

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

export interface ReadJsonOptions extends ReadLinesOptions {
  readonly maxDocumentBytes?: number;
  /** The document's mtime when it was discovered, if known. */
  readonly modifiedMs?: number | undefined;
}

/**
 * Read a 0.20-style session document (`{sessionId, projectHash, startTime, lastUpdated, messages[]}`, rewritten in
 * place). A document whose text ends before the JSON does, written less than `WRITE_SETTLE_MS` ago (or at a time
 * not known), is taken to be mid-rewrite: nothing is read and its bytes are held back (`pendingBytes`), as for an
 * unfinished JSONL line. Left alone longer, it is truncated: reported (`invalid_json`), not held back unseen.
 * Never throws on bad data.
 */
export async function readJsonEntries(file: string, options: ReadJsonOptions = {}): Promise<ReadEntries> {
  const max = options.maxDocumentBytes ?? options.maxLineBytes ?? MAX_GEMINI_DOCUMENT_BYTES;
  const entries: SessionEntry[] = [];
  const whole = await readWhole(options.open ?? openFileBytes, file, max);
  const size = whole.size;
  // Bytes are held back only while the document may be being rewritten (below).
  const done = (pendingBytes: number) => ({
    entries,
    end: {
      nextOffset: size - pendingBytes,
      nextLine: 1,
      pendingBytes,
      bytesRead: size,
      ...(pendingBytes > 0 ? { stillWriting: true } : {}),
    },
  });
  if (whole.overLimit) {
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
  const bytes = whole.bytes;
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
    const reason = messageOf(error);
    const at = /position (\d+)/.exec(reason)?.[1];
    const cut = /end of JSON input/i.test(reason) || (at !== undefined && Number(at) >= trimmed.length);
    // The text stops before the document does while the client may be rewriting it: read it again once it is whole.
    if (cut && mayStillBeWritten(lastWritten(whole.modifiedMs, options.modifiedMs))) return done(size);
    const message = cut
      ? `truncated: the session document ends before its JSON does (${size} bytes) and has not been written to ` +
        `for ${WRITE_SETTLE_MS / 1000} s or more; not read`
      : `invalid JSON: ${reason}`;
    entries.push({ kind: 'issue', issue: { code: 'invalid_json', file, line: 1, message } });
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
  // messages that are no list (a string, an object of another shape): kept whole and shown, not read as none
  if (doc.messages !== undefined && !Array.isArray(doc.messages)) {
    entries.push({ kind: 'other', value: { messages: doc.messages }, loc: { file, line: 1, offset: 0 }, bytes: 0 });
  }
  for (const message of messages) {
    const loc = { file, ...lines(isRecord(message) ? message.id : undefined) };
    if (isRecord(message) && typeof message.type === 'string') {
      entries.push({ kind: 'message', value: message, loc, bytes: 0, superseded: [] });
    } else entries.push({ kind: 'other', value: message, loc, bytes: 0 });
  }
  const nextLine = Math.max(countLines(text), lastLine(entries)) + 1;
  return { ...done(0), end: { nextOffset: size, nextLine, pendingBytes: 0, bytesRead: size } };
}

/**
 * When the document was last written: the later of the mtime it was discovered with and its source's now (it may
 * have been rewritten since), undefined when neither is known (an archived copy found no more on disk).
 */
function lastWritten(readMs: number | undefined, discoveredMs: number | undefined): number | undefined {
  if (readMs === undefined || discoveredMs === undefined) return readMs ?? discoveredMs;
  return Math.max(readMs, discoveredMs);
}

/**
 * Where each message starts, for source locations: the line and byte offset of its `"id": "<id>"`, searched forward
 * from the previous message (messages are in order), so the whole walk is linear. A message's line is its own: one
 * past the previous message's (the header's is 1) when the document does not break lines between them (written
 * compact, `JSON.stringify` without indent), since a record is known by its file and line (the index's key).
 */
function lineFinder(text: string): (id: unknown) => { line: number; offset: number } {
  let position = 0;
  let textLine = 1;
  let offset = 0;
  let last = 1;
  const next = () => {
    last = Math.max(textLine, last + 1);
    return { line: last, offset };
  };
  return (id) => {
    if (typeof id !== 'string') return next();
    const at = text.indexOf(JSON.stringify(id), position);
    if (at < 0) return next();
    for (let i = position; i < at; i += 1) if (text.charCodeAt(i) === 10) textLine += 1;
    offset += Buffer.byteLength(text.slice(position, at));
    position = at;
    return next();
  };
}

/** The last line a message was given (`lineFinder`). */
function lastLine(entries: readonly SessionEntry[]): number {
  const entry = entries.at(-1);
  return entry !== undefined && 'loc' in entry ? entry.loc.line : 1;
}

function countLines(text: string): number {
  let n = 1;
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) n += 1;
  return n;
}
