/**
 * Markdown helpers for exports: text from a transcript never changes the document's structure by accident, and never
 * becomes HTML or a script link in a viewer that renders Markdown's HTML (logs hold arbitrary HTML).
 */

/**
 * Backslash-escape the characters Markdown gives meaning to inline, so a glob pattern in a tool input stays literal
 * inside bold text (`Glob **` + `/*.md` used to end the bold early).
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/\r\n|[\r\n]/g, ' ').replace(/[\\`*_{}[\]()<>#+!|~]/g, '\\$&');
}

/** A fenced block whose fence is longer than any backtick run inside. */
export function fence(text: string, info = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${info}\n${text}\n${ticks}`;
}

/** An inline code span holding `text` whole (a backtick inside cannot end it), on one line. */
export function inlineCode(text: string): string {
  const plain = text.replace(/\r\n|[\r\n]/g, ' ');
  const longest = Math.max(0, ...[...plain.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = plain.startsWith('`') || plain.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${plain}${pad}${ticks}`;
}

/** A fence that opens code here: at the start of the line only (indented, it may belong to a list item the text does
 * not show, and end with it); its backtick form takes no backtick after it. */
const OPENING_FENCE = /^(`{3,}|~{3,})/;
/** A line that closes a fence opened with `mark`, as CommonMark reads it (indented up to three spaces). */
const closesFence = (line: string, mark: string) => {
  const found = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line)?.[1];
  return found !== undefined && found[0] === mark[0] && found.length >= mark.length;
};

/** A text's lines and what ends each (`\n`, `\r\n`, a lone `\r` as CommonMark reads it too, or '' for the last). */
function linesOf(text: string): { line: string; end: string }[] {
  const parts = text.split(/(\r\n|\r|\n)/);
  const lines: { line: string; end: string }[] = [];
  for (let i = 0; i < parts.length; i += 2) lines.push({ line: parts[i] as string, end: parts[i + 1] ?? '' });
  return lines;
}

/** Text as lines of a block quoted by `quote` (`> `): every line, those a lone `\r` ends too, starts with it. */
export function quotedLines(text: string, quote: string): string[] {
  return text
    .split('\n')
    .map((line) => `${quote}${quote === '' ? line : line.replace(/\r(?!$)/g, `\r${quote}`)}`.trimEnd());
}

/**
 * Markdown written by a person or a model (a prompt, a reply, thinking) kept as Markdown, made inert: outside code
 * (a fence opened at the start of a line, a code span) `<` and `&` are written `&lt;` and `&amp;`, so no tag, comment,
 * autolink or character reference is read; a backslash escape stays one (an escaped backtick opens no code span); a
 * `javascript:` or `vbscript:` address, and a `data:` one with a media type, point nowhere (`unsafe-…`). A fence left
 * open is closed, so what the export writes after it is never read as code or as the text's prose. A line ends at
 * `\n`, `\r\n` or a lone `\r` alike, as CommonMark reads it; the line endings and other control characters are left
 * as written here (the whole export then shows them as symbols: `markdownChunks`).
 */
export function inertMarkdown(text: string): string {
  let out = '';
  let open: string | undefined;
  for (const { line, end } of linesOf(text)) {
    if (open !== undefined) {
      out += line + end;
      if (closesFence(line, open)) open = undefined;
      continue;
    }
    const mark = OPENING_FENCE.exec(line)?.[1];
    if (mark !== undefined && !(mark[0] === '`' && line.slice(mark.length).includes('`'))) {
      open = mark;
      out += line + end;
      continue;
    }
    out += inertLine(line) + end;
  }
  return open === undefined ? out : `${out}\n${open}`;
}

const PUNCTUATION = /[!-/:-@[-`{-~]/;

/** One line of prose: its code spans kept as they are, the rest `inertProse`. */
function inertLine(line: string): string {
  let out = '';
  let prose = '';
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    if (c === '\\' && i + 1 < line.length && PUNCTUATION.test(line[i + 1] as string)) {
      // A backslash escape: the character after it is literal (an escaped `<` or `&` is no markup either).
      prose += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '`') {
      let n = 1;
      while (line[i + n] === '`') n++;
      const close = closingRun(line, i + n, n);
      if (close !== undefined) {
        out += inertProse(prose) + line.slice(i, close + n);
        prose = '';
        i = close + n;
        continue;
      }
      prose += line.slice(i, i + n);
      i += n;
      continue;
    }
    prose += c;
    i++;
  }
  return out + inertProse(prose);
}

/** Where a run of exactly `n` backticks starts at or after `from`, closing a code span; undefined when none does. */
function closingRun(line: string, from: number, n: number): number | undefined {
  for (let i = from; i < line.length; ) {
    if (line[i] !== '`') {
      i++;
      continue;
    }
    let m = 1;
    while (line[i + m] === '`') m++;
    if (m === n) return i;
    i += m;
  }
  return undefined;
}

function inertProse(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/\b(javascript|vbscript)(\\?:)/gi, 'unsafe-$1$2')
    .replace(/\b(data)(\\?:\s*[a-z]+\/[a-z0-9.+-]+)/gi, 'unsafe-$1$2');
}
