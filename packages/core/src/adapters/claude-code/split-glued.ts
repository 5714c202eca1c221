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
