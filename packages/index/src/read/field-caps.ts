/**
 * Length caps for session fields in outputs (`sessions --json`, the API): a hostile transcript can hold a megabyte
 * version string or thousands of distinct model names; the stored rows keep everything, outputs show a bounded part.
 */

/** Most list entries shown (versions, models). */
export const MAX_LIST_ENTRIES = 20;
/** Longest list entry shown. */
export const MAX_ENTRY_CHARS = 100;
/** Longest free text field shown (title, project path, branch). */
export const MAX_FIELD_CHARS = 500;

/** `text` cut to `max` characters, with an ellipsis when cut. */
export function clipField(text: string, max: number = MAX_FIELD_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The first `MAX_LIST_ENTRIES` entries, each clipped, and a last `… N more` entry when some were left out. */
export function capList(items: readonly string[]): string[] {
  const shown = items.slice(0, MAX_LIST_ENTRIES).map((item) => clipField(item, MAX_ENTRY_CHARS));
  if (items.length > MAX_LIST_ENTRIES) shown.push(`… ${items.length - MAX_LIST_ENTRIES} more`);
  return shown;
}
