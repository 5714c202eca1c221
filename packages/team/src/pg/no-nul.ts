/**
 * PostgreSQL holds no NUL (U+0000) in text or jsonb, keys included: each becomes U+FFFD, nothing else changes. A
 * laptop's texts can hold one (a failed command's binary output in its error, a title cut from such a prompt).
 */
export const noNul = (text: string): string => text.replaceAll('\0', '\uFFFD');

/** `value` (a JSON value: a push's session) with every NUL of its strings and keys as U+FFFD; copied only where one is. */
export function withoutNul<T>(value: T): T {
  return clean(value) as T;
}

function clean(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\0') ? noNul(value) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = clean(value[i]);
      if (v !== value[i]) {
        copy ??= value.slice();
        copy[i] = v;
      }
    }
    return copy ?? value;
  }
  const entries = Object.entries(value);
  let changed = false;
  const out = entries.map(([key, v]) => {
    const k = key.includes('\0') ? noNul(key) : key;
    const w = clean(v);
    if (k !== key || w !== v) changed = true;
    return [k, w] as const;
  });
  return changed ? Object.fromEntries(out) : value;
}
