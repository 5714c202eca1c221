/**
 * An edit's replacement (its old and its new text) as diff lines, the one rule the dashboard's diff of an edit, the
 * text exports' and the `+N −M` of its summary follow. Browser-safe.
 * @module
 */
import { diffArrays } from 'diff';

/**
 * Edits beyond which two texts are shown as the old removed and the new added, whole: the line diff of texts that
 * differ this much costs more than it tells.
 */
const MAX_EDITS = 4000;

/** A text's lines, as a file has them (a final newline ends the last line, it starts none); none for an empty text. */
const linesOf = (text: string): string[] => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

/**
 * The replacement of `oldText` by `newText` as diff lines: ` ` a line both keep, `-` one only the old has, `+` one
 * only the new has (a Myers diff over lines, jsdiff's `diffArrays`); an edit that changes 8 of 56 lines is 8 lines
 * removed and 8 added around the 48 it keeps, not 56 and 56.
 * @example replacementLines('a\nb\nc', 'a\nx\nc') // [' a', '-b', '+x', ' c']
 */
export function replacementLines(oldText: string, newText: string): string[] {
  const before = linesOf(oldText);
  const after = linesOf(newText);
  const parts = diffArrays(before, after, { maxEditLength: MAX_EDITS });
  if (parts === undefined) return [...before.map((line) => `-${line}`), ...after.map((line) => `+${line}`)];
  return parts.flatMap((part) => part.value.map((line) => `${part.added ? '+' : part.removed ? '-' : ' '}${line}`));
}

/** The lines a replacement adds and removes (`replacementLines`' `+` and `-` lines). */
export function replacementDelta(oldText: string, newText: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of replacementLines(oldText, newText)) {
    if (line.startsWith('+')) added += 1;
    else if (line.startsWith('-')) removed += 1;
  }
  return { added, removed };
}
