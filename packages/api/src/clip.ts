/**
 * Long texts cut: the timeline's pages cut each string of a call or event at `STRING_LIMIT` characters (the per-call
 * endpoint has them whole, or cut at its `chars`), and an HTML export's viewer cuts what it holds whole the same way.
 * @module
 */

/** Strings longer than this are cut in timeline pages (the per-call endpoint has the full text). */
export const STRING_LIMIT = 12_000;
export const ARRAY_LIMIT = 300;

/** Set when anything was cut. */
export interface Clip {
  truncated: boolean;
}

/**
 * A deep copy with long strings and arrays cut; images (`kind: 'image'`) are kept whole. Keys and kinds are never
 * touched, so the copy has the type of the value (a typed result stays a valid `TypedResult`).
 */
export function clip<T>(value: T, state: Clip, limit = STRING_LIMIT): T {
  return clipValue(value, state, limit) as T;
}

function clipValue(value: unknown, state: Clip, limit: number): unknown {
  if (typeof value === 'string') {
    if (value.length <= limit) return value;
    state.truncated = true;
    return value.slice(0, limit);
  }
  if (Array.isArray(value)) {
    const items = value.length > ARRAY_LIMIT ? value.slice(0, ARRAY_LIMIT) : value;
    if (items !== value) state.truncated = true;
    return items.map((item) => clipValue(item, state, limit));
  }
  if (typeof value === 'object' && value !== null) {
    const rec = value as Record<string, unknown>;
    if (rec.kind === 'image') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rec)) out[k] = clipValue(v, state, limit);
    return out;
  }
  return value;
}
