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
