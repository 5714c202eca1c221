/** Number of lines of a file's text (a trailing newline ends the last line, it does not start one). */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}
