/** Markdown helpers for exports: text from a transcript never changes the document's structure by accident. */

/**
 * Backslash-escape the characters Markdown gives meaning to inline, so a glob pattern in a tool input stays literal
 * inside bold text (`Glob **` + `/*.md` used to end the bold early).
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+!|~]/g, '\\$&');
}

/** A fenced block whose fence is longer than any backtick run inside. */
export function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}\n${text}\n${ticks}`;
}
