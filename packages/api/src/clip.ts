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
 * A deep copy with long strings and arrays cut; images (`kind: 'image'`, a notebook cell's `image_data`) are kept whole. Keys and kinds are never
 * touched, so the copy has the type of the value (a typed result stays a valid `TypedResult`).
 */
export function clip<T>(value: T, state: Clip, limit = STRING_LIMIT): T {
  return clipValue(value, state, limit) as T;
}

function clipValue(value: unknown, state: Clip, limit: number): unknown {
  if (typeof value === 'string') {
    if (value.length <= limit) return value;
    state.truncated = true;
    // never half a surrogate pair (an emoji at the cut showed as �)
    const high = (value.charCodeAt(limit - 1) & 0xfc00) === 0xd800;
    return value.slice(0, high ? limit - 1 : limit);
  }
  if (Array.isArray(value)) {
    const items = value.length > ARRAY_LIMIT ? value.slice(0, ARRAY_LIMIT) : value;
    if (items !== value) state.truncated = true;
    return items.map((item) => clipValue(item, state, limit));
  }
  if (typeof value === 'object' && value !== null) {
    const rec = value as Record<string, unknown>;
    // an image (and a notebook cell's, `image_data`) whole: a cut one is no image
    if (rec.kind === 'image' || typeof rec.image_data === 'string') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rec)) out[k] = clipValue(v, state, limit);
    return out;
  }
  return value;
}

/** What stands for an image's bytes where a call's `images` already hold them. */
export const IMAGE_ONCE_MARK = '[image: its bytes are in the result’s images]';

/**
 * A copy of a call's result part with each image's bytes once: a string that is one of `images`' data (an image
 * block's, Read's `file.base64`) or a data URL of it (a command's image stdout) becomes `IMAGE_ONCE_MARK`, not cut.
 * A page sent each image two or three times, and its cut copies said the call's output was shortened.
 */
export function imagesOnce<T>(value: T, images: readonly { readonly data: string }[]): T {
  if (images.length === 0) return value;
  const datas = new Set(images.map((i) => i.data));
  const isImage = (s: string) =>
    datas.has(s) || (s.startsWith('data:') && datas.has(s.slice(s.indexOf(',') + 1).replace(/\s/g, '')));
  const walk = (v: unknown, key?: string): unknown => {
    // a notebook cell's image is shown from its output (its renderer reads no `images`): kept
    if (typeof v === 'string') return key !== 'image_data' && v.length >= 64 && isImage(v) ? IMAGE_ONCE_MARK : v;
    if (Array.isArray(v)) return v.map((item) => walk(item));
    if (typeof v !== 'object' || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v)) out[k] = walk(item, k);
    return out;
  };
  return walk(value) as T;
}
