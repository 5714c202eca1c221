/**
 * Markdown helpers for exports: text from a transcript never changes the document's structure by accident, and never
 * becomes HTML or a script link in a viewer that renders Markdown's HTML (logs hold arbitrary HTML).
 */

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

/** An inline code span holding `text` whole (a backtick inside cannot end it), on one line. */
export function inlineCode(text: string): string {
  const plain = text.replace(/\n/g, ' ');
  const longest = Math.max(0, ...[...plain.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = plain.startsWith('`') || plain.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${plain}${pad}${ticks}`;
}

const OPENING_FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Markdown written by a person or a model (a prompt, a reply, thinking) kept as Markdown, made inert: outside code
 * (fenced blocks and inline code spans) `<` is written `&lt;`, so no tag, comment or autolink is read as HTML, and a
 * link to a `javascript:`, `vbscript:` or `data:` address points nowhere. A fence left open is closed, so what the
 * export writes after it is never read as code or as the text's prose. Control characters are left as written (the
 * export is the transcript's text; written to a terminal, the CLI shows them as symbols).
 */
export function inertMarkdown(text: string): string {
  const out: string[] = [];
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const fenceMark = OPENING_FENCE.exec(line)?.[1];
    if (open !== undefined) {
      out.push(line);
      const closes =
        fenceMark !== undefined &&
        fenceMark[0] === open[0] &&
        fenceMark.length >= open.length &&
        line.trim() === fenceMark;
      if (closes) open = undefined;
      continue;
    }
    if (
      fenceMark !== undefined &&
      !(fenceMark[0] === '`' && line.slice(line.indexOf(fenceMark) + fenceMark.length).includes('`'))
    ) {
      open = fenceMark;
      out.push(line);
      continue;
    }
    out.push(inertLine(line));
  }
  if (open !== undefined) out.push(open);
  return out.join('\n');
}

/** One line of prose: its code spans kept, the rest `inertProse`. */
function inertLine(line: string): string {
  let out = '';
  let from = 0;
  const runs = [...line.matchAll(/`+/g)];
  for (let i = 0; i < runs.length; i++) {
    const opening = runs[i];
    if (opening === undefined || opening.index < from) continue;
    const closing = runs.slice(i + 1).find((run) => run[0].length === opening[0].length);
    if (closing === undefined) continue;
    out += inertProse(line.slice(from, opening.index)) + line.slice(opening.index, closing.index + closing[0].length);
    from = closing.index + closing[0].length;
  }
  return out + inertProse(line.slice(from));
}

function inertProse(text: string): string {
  return text
    .replace(/</g, '&lt;')
    .replace(/\]\(\s*(javascript|vbscript|data):/gi, '](unsafe-$1:')
    .replace(/^( {0,3}\[[^\]]*\]:\s*)(javascript|vbscript|data):/i, '$1unsafe-$2:');
}
