/**
 * Tool names: counted under their canonical name (`Agent`), shown with the name the transcript wrote when it differs
 * (`Agent (Task)`).
 * @module
 */

/** `Agent`, or `Agent (Task)` when the written name differs from the canonical one. */
export function formatToolName(canonicalName: string, writtenNames: readonly string[] = []): string {
  const others = [...new Set(writtenNames.filter((n) => n !== canonicalName))];
  return others.length === 0 ? canonicalName : `${canonicalName} (${others.join(', ')})`;
}
