/**
 * Split a line that holds several JSON objects written back to back (`…}{"parentUuid":…`, a client bug seen in
 * real transcripts) at its top-level object boundaries. String-aware: braces inside strings do not count.
 * Returns the parts when there are at least two, else undefined (one value, or something that is not objects).
 * An unfinished last object is returned as a part too, so that its own parse reports it.
 */
export function splitGluedObjects(text: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === BACKSLASH) escaped = true;
      else if (ch === QUOTE) inString = false;
      continue;
    }
    if (ch === QUOTE) {
      if (depth === 0) return undefined;
      inString = true;
    } else if (ch === OPEN) {
      if (depth === 0) start = i;
      depth += 1;
    } else if (ch === CLOSE) {
      depth -= 1;
      if (depth < 0) return undefined;
      if (depth === 0) parts.push(text.slice(start, i + 1));
    } else if (depth === 0 && !isSpace(ch)) {
      return undefined;
    }
  }
  if (depth > 0 && parts.length > 0) parts.push(text.slice(start));
  return parts.length >= 2 ? parts : undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x7b;
const CLOSE = 0x7d;

function isSpace(ch: number): boolean {
  return ch === 0x20 || ch === 0x09 || ch === 0x0d || ch === 0x0a;
}

/**
 * Whether a value is a transcript's own record, not an object nested in one: it names its session and its parent
 * (`sessionId`, `parentUuid`). A message nested in a cut record (an `agent_progress` record's `{"type":"assistant",
 * "message":…,"uuid":…}`) has neither; a record without them (a summary) after a cut one is not recovered.
 */
function isTopLevelRecord(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return typeof record.sessionId === 'string' && 'parentUuid' in record;
}

/** At most this many places are tried as a whole record's start after a cut-off one (each try parses the rest). */
const MAX_TAIL_TRIES = 64;

/**
 * A line whose record was cut off (its write interrupted: a crash, a full disk) with the next record written after it
 * on the same line, as a client that resumes writes: `{"type":"user","message":{"content":"hel{"parentUuid":…}`.
 * Returns the cut-off text and the whole record after it (the longest tail that is one record, `isTopLevelRecord`,
 * found from the left among the first places a record can start, `{"`), or undefined when no tail is one.
 */
export function splitCutRecord(text: string): { readonly cut: string; readonly record: string } | undefined {
  let at = text.indexOf('{"', 1);
  for (let tries = 0; at > 0 && tries < MAX_TAIL_TRIES; tries++) {
    const tail = text.slice(at);
    try {
      const value: unknown = JSON.parse(tail);
      if (isTopLevelRecord(value)) return { cut: text.slice(0, at), record: tail };
    } catch {
      // not a record's start: the next place
    }
    at = text.indexOf('{"', at + 1);
  }
  return undefined;
}
