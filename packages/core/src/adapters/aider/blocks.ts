/**
 * The blocks of an Aider chat history (`.aider.chat.history.md`), by the prefixes Aider writes: a run starts at
 * `# aider chat started at <local time>`; the person's lines are `#### …`; Aider's own output is quoted `> …`;
 * everything else is the model's answer (blank lines inside it included). Every line of the file belongs to exactly
 * one block, or is a blank line between blocks: nothing is dropped.
 */
export type AiderBlockKind = 'run' | 'user' | 'output' | 'answer';

export interface AiderBlock {
  readonly kind: AiderBlockKind;
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  /** Byte offset of the first line. */
  readonly offset: number;
  /** The block's lines as written (without their line ends). */
  readonly lines: readonly string[];
}

const RUN = /^# aider chat started at /;

/** A line's block by its prefix: Aider quotes its output as `> …` (or a lone `>`); `>>>>>>> REPLACE` is not one. */
function kindOf(line: string): AiderBlockKind {
  if (RUN.test(line)) return 'run';
  if (line === '####' || line.startsWith('#### ')) return 'user';
  if (line.trimEnd() === '>' || line.startsWith('> ')) return 'output';
  return 'answer';
}

/**
 * An answer cut off inside a code fence (the model stopped at its token limit) leaves the fence open: what Aider
 * writes next still starts a block of its own. A run's banner always does; a quoted line or a person's line does
 * after a blank line when it ends in the two spaces Aider puts at the end of each line it quotes.
 */
function endsFence(line: string, previous: string | undefined): boolean {
  if (RUN.test(line)) return true;
  const kind = kindOf(line);
  return kind !== 'answer' && (previous ?? '').trim() === '' && / {2}$/.test(line);
}

/** Split a history's text into blocks. Never throws. */
export function aiderBlocks(text: string): AiderBlock[] {
  const out: AiderBlock[] = [];
  const lines = text.split('\n');
  let offset = 0;
  let current: { kind: AiderBlockKind; startLine: number; offset: number; lines: string[] } | undefined;
  /** Inside a fenced code block of an answer: every line is the answer's. */
  let fenced = false;
  const close = () => {
    if (current === undefined) return;
    // An answer's trailing blank lines are between blocks, not in it.
    while (current.lines.length > 0 && (current.lines.at(-1) ?? '').trim() === '') current.lines.pop();
    if (current.lines.length > 0) {
      out.push({ ...current, endLine: current.startLine + current.lines.length - 1 });
    }
    current = undefined;
  };
  lines.forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const lineOffset = offset;
    offset += Buffer.byteLength(raw, 'utf8') + 1;
    if (line.trim() === '') {
      // Blank lines end every block but an answer (a model's text has paragraphs and code).
      if (current?.kind === 'answer') current.lines.push(line);
      else close();
      return;
    }
    const kind = fenced && current?.kind === 'answer' && !endsFence(line, lines[index - 1]) ? 'answer' : kindOf(line);
    if (kind === 'answer' && /^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (kind !== 'answer') fenced = false;
    if (current !== undefined && current.kind === kind && kind !== 'run') {
      current.lines.push(line);
      return;
    }
    close();
    current = { kind, startLine: index + 1, offset: lineOffset, lines: [line] };
  });
  close();
  return out;
}

/** A line without Aider's prefix (`#### `, `> `) and without the two spaces Markdown takes for a line break. */
export function lineText(line: string, kind: AiderBlockKind): string {
  const body = kind === 'user' ? line.replace(/^####\s?/, '') : kind === 'output' ? line.replace(/^>\s?/, '') : line;
  return body.replace(/ {2}$/, '');
}
