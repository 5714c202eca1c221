import type { Usage } from '../../model/record.js';

/**
 * The edits an Aider answer proposes, in the formats Aider has written over its versions:
 *
 * - SEARCH/REPLACE blocks (`<<<<<<< SEARCH` … `=======` … `>>>>>>> REPLACE`), and the same blocks under their former
 *   marker names, `ORIGINAL`/`UPDATED` and `HEAD`/`updated` (Aider 0.1x, 2023: the benchmark histories in the fixtures'
 *   `aorwall-aider-*` folders);
 * - whole files (the `whole` edit format): the file's name on a line of its own, then its full text fenced. A listing
 *   is an edit only when Aider printed `Applied edit to <that name>` below the answer; otherwise it is text.
 */
export interface SearchReplaceEdit {
  /** Index of the opening marker line in the answer's lines. */
  readonly index: number;
  /** Index of the closing marker line. */
  readonly end: number;
  readonly filePath: string | undefined;
  readonly search: string;
  readonly replace: string;
}

export interface WholeFileEdit {
  /** Index of the file-name line in the answer's lines. */
  readonly index: number;
  readonly filePath: string;
  readonly content: string;
}

const OPEN = /^<{5,9} (?:SEARCH|ORIGINAL|HEAD)\s*$/i;
const DIVIDER = /^={5,9}\s*$/;
const CLOSE = /^>{5,9} (?:REPLACE|UPDATED)\s*$/i;
const FENCE = /^\s*(```|~~~)/;

/** Every complete SEARCH/REPLACE block of an answer (an unclosed one is left as text). */
export function searchReplaceEdits(lines: readonly string[]): SearchReplaceEdit[] {
  const out: SearchReplaceEdit[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    if (!OPEN.test(lines[i] ?? '')) continue;
    const divider = lines.findIndex((l, j) => j > i && DIVIDER.test(l));
    const end = lines.findIndex((l, j) => j > divider && CLOSE.test(l));
    if (divider === -1 || end === -1) continue;
    // The file's name is the line above the block, or above its opening fence.
    const before = (lines[i - 1] ?? '').startsWith('```') ? lines[i - 2] : lines[i - 1];
    const name = before?.trim();
    out.push({
      index: i,
      end,
      filePath: name === undefined || name === '' ? undefined : name,
      search: lines.slice(i + 1, divider).join('\n'),
      replace: lines.slice(divider + 1, end).join('\n'),
    });
    i = end;
  }
  return out;
}

/** The SEARCH parts of an answer's (or Aider's explanation's) blocks, without needing the REPLACE half. */
export function searchParts(lines: readonly string[]): Set<string> {
  const parts = new Set<string>();
  for (let i = 0; i < lines.length; i += 1) {
    if (!OPEN.test(lines[i] ?? '')) continue;
    const divider = lines.findIndex((l, j) => j > i && DIVIDER.test(l));
    if (divider !== -1) parts.add(lines.slice(i + 1, divider).join('\n'));
  }
  return parts;
}

/** A listing's file-name line as models write it: bare, or in backticks, bold, or with a colon or heading marks. */
function listedName(line: string): string {
  return line.trim().replace(/^[#*`\s]+|[*:`\s]+$/g, '');
}

/**
 * Whole-file listings of `files` (names Aider said it applied an edit to): a line naming the file, the next line
 * opening a fence, the text up to the fence's close. The last listing of a name wins (Aider writes the last one).
 * One file left without a listing takes the answer's last fenced block, as Aider does when one file is in the chat
 * and the block names none.
 */
export function wholeFileEdits(lines: readonly string[], files: ReadonlySet<string>): WholeFileEdit[] {
  const found = new Map<string, WholeFileEdit>();
  let last: { index: number; content: string } | undefined;
  for (let i = 0; i + 1 < lines.length; i += 1) {
    if (!FENCE.test(lines[i + 1] ?? '')) continue;
    // An answer cut off at the model's token limit leaves its last fence open: Aider wrote what there was.
    const closing = lines.findIndex((l, j) => j > i + 1 && FENCE.test(l));
    const close = closing === -1 ? lines.length : closing;
    const content = lines.slice(i + 2, close).join('\n');
    const name = listedName(lines[i] ?? '');
    if (files.has(name)) found.set(name, { index: i, filePath: name, content });
    last = { index: i + 1, content };
    i = close;
  }
  const unlisted = [...files].filter((f) => !found.has(f));
  const only = unlisted[0];
  if (unlisted.length === 1 && only !== undefined && last !== undefined && files.size === 1) {
    found.set(only, { index: last.index, filePath: only, content: last.content });
  }
  return [...found.values()];
}

/** Aider 0.1x's report, printed above the answer it counts: `945 prompt tokens, 194 completion tokens, $0.039990 cost`. */
const LEGACY_TOKENS = /^(\d+) prompt tokens, (\d+) completion tokens(?:, \$[\d.]+ cost)?\s*$/;

/** The legacy report as usage (exact counts, as Aider's tokenizer counted them); undefined for any other line. */
export function usageOfLegacyTokensLine(text: string): Usage | undefined {
  const m = LEGACY_TOKENS.exec(text);
  if (m === null) return undefined;
  return {
    inputTokens: Number(m[1]),
    outputTokens: Number(m[2]),
    cacheCreationInputTokens: 0,
    cacheCreation1hInputTokens: 0,
    cacheReadInputTokens: 0,
  };
}
