/** Newlines in `text`, counted without splitting it (a Read of a large file must not become an array of its lines). */
export function newlineCount(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/** Number of lines of a file's text (a trailing newline ends the last line, it does not start one). */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const n = newlineCount(text) + 1;
  return text.endsWith('\n') ? n - 1 : n;
}
