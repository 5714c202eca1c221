/**
 * A shell command line read as simple commands, each its words and its redirections, as far as it can be read
 * without running it: quotes, escapes, comments, here-documents (their bodies are text, never commands) and the
 * operators that end a command (`&&`, `||`, `;`, `|`, `&`, a newline, a parenthesis). A word that holds an expansion
 * (`$X`, `$(…)`, a backquote), a glob or a brace is kept but not `plain`: what it names is known only when run.
 * PowerShell's command lines are read with its own escape (a backquote; `\` is a path's separator there).
 * Browser-safe.
 * @module
 */

/** A word as the shell would pass it once its quotes are taken off; `plain` when nothing in it is expanded. */
export interface ShellWord {
  readonly text: string;
  readonly plain: boolean;
}

/**
 * A redirection to or from a file: `>` writes it whole, `>>` appends, `<` reads it. `fd` is the descriptor written
 * before the operator (`2>`), undefined when none was; `both` for `&>` and `>&file` (output and errors).
 */
export interface ShellRedirect {
  readonly op: '>' | '>>' | '<';
  readonly fd: number | undefined;
  readonly both: boolean;
  readonly target: ShellWord;
}

/** A path as a command names it, without its trailing separator (`dist/` is `dist`). */
export const bare = (path: string): string => (path.length > 1 ? path.replace(/[\\/]+$/, '') : path);

/**
 * Where `from` goes moved or copied into `folder` (`mv a.ts lib/`, `Move-Item b.cs lib\`): its name in that folder,
 * joined with the folder's separator (or `from`'s, when the folder writes none).
 */
export function intoFolder(folder: string, from: string): string {
  const sep = folder.includes('\\') || (!folder.includes('/') && from.includes('\\')) ? '\\' : '/';
  const name = bare(from).split(/[\\/]/).pop() ?? from;
  return `${bare(folder)}${sep}${name}`;
}

/** One file a shell command touched: `write` whole, `edit` in part (appended, edited in place), `move` to `movedTo`. */
export interface ShellTouch {
  readonly path: string;
  readonly use: 'read' | 'write' | 'edit' | 'delete' | 'move';
  readonly movedTo?: string;
}

export interface SimpleCommand {
  readonly words: readonly ShellWord[];
  readonly redirects: readonly ShellRedirect[];
  /** Inside parentheses (a subshell: a `cd` there ends with it). */
  readonly grouped: boolean;
}

type Token =
  | { readonly kind: 'word'; readonly word: ShellWord }
  | { readonly kind: 'end'; readonly depth?: 1 | -1 }
  | { readonly kind: 'redirect'; readonly op: string; readonly fd: number | undefined };

/** Characters that end an unquoted word. */
const BREAK = new Set([' ', '\t', '\n', ';', '|', '&', '<', '>', '(', ')']);
/** Characters that make an unquoted word expand (and `~` at its start: `isHomeSlash`). */
const EXPANDS = new Set(['$', '`', '*', '?', '[', '{']);

/** Whether what follows a word's first `~` makes it the home folder: the word's end or a separator. */
const isHomeSlash = (next: string | undefined, dialect: ShellDialect): boolean =>
  next === undefined || BREAK.has(next) || next === '/' || (dialect === 'powershell' && next === '\\');
/** Redirection operators, longest first. */
const REDIRECT_OPS = ['&>>', '&>', '<<<', '<<-', '<<', '<>', '<&', '>>', '>|', '>&', '<', '>'];

/** How a shell reads a command line: a POSIX shell's `\` escapes, PowerShell's backquote does. */
export type ShellDialect = 'posix' | 'powershell';

/** The end of a `$(…)` or a backquote starting at `i`, or -1 when it is not closed. */
function substitutionEnd(s: string, i: number): number {
  if (s[i] === '`') return s.indexOf('`', i + 1);
  let depth = 1;
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j];
    if (c === '\\') j++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j;
  }
  return -1;
}

/** The word starting at `i`, and where it ends; undefined when a quote or a substitution is not closed. */
function readWord(s: string, start: number, dialect: ShellDialect): { word: ShellWord; end: number } | undefined {
  const escapeChar = dialect === 'posix' ? '\\' : '`';
  let text = '';
  let plain = true;
  let i = start;
  while (i < s.length && !BREAK.has(s[i] as string)) {
    const c = s[i] as string;
    if (c === "'") {
      const close = s.indexOf("'", i + 1);
      if (close === -1) return undefined;
      text += s.slice(i + 1, close);
      i = close + 1;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < s.length && s[j] !== '"'; j++) {
        const q = s[j] as string;
        if (q === escapeChar) text += s[++j] ?? '';
        else if (q === '`' || (q === '$' && s[j + 1] === '(')) {
          const end = substitutionEnd(s, q === '$' ? j + 1 : j);
          if (end === -1) return undefined;
          plain = false;
          j = end;
        } else {
          if (q === '$') plain = false;
          text += q;
        }
      }
      if (j >= s.length) return undefined;
      i = j + 1;
    } else if (c === escapeChar) {
      text += s[i + 1] ?? '';
      i += 2;
    } else if (c === '`' || (c === '$' && s[i + 1] === '(')) {
      const end = substitutionEnd(s, c === '$' ? i + 1 : i);
      if (end === -1) return undefined;
      plain = false;
      i = end + 1;
    } else {
      // `~` expands at a word's start only: the home folder (`~`, `~/…`) is kept as written, another's (`~ann`) not
      if (c === '~' ? i === start && !isHomeSlash(s[i + 1], dialect) : EXPANDS.has(c)) plain = false;
      text += c;
      i++;
    }
  }
  return { word: { text, plain }, end: i };
}

/**
 * Past the bodies of the here-documents a line opened (`delimiters`, in order), from the start of the next line: the
 * index after the last one's closing line, or the script's length when one is never closed.
 */
function pastBodies(s: string, from: number, delimiters: readonly { tag: string; tabs: boolean }[]): number {
  let i = from;
  for (const { tag, tabs } of delimiters) {
    for (;;) {
      if (i >= s.length) return s.length;
      const eol = s.indexOf('\n', i);
      const line = s.slice(i, eol === -1 ? s.length : eol);
      i = eol === -1 ? s.length : eol + 1;
      if ((tabs ? line.replace(/^\t+/, '') : line) === tag) break;
    }
  }
  return i;
}

/** The script's tokens, or undefined where a quote or a substitution is not closed. */
function tokens(s: string, dialect: ShellDialect): Token[] | undefined {
  const continuation = dialect === 'posix' ? '\\' : '`';
  const out: Token[] = [];
  let heredocs: { tag: string; tabs: boolean }[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i] as string;
    if (c === ' ' || c === '\t') i++;
    else if (c === continuation && s[i + 1] === '\n') i += 2;
    else if (c === '#') i = s.indexOf('\n', i) === -1 ? s.length : s.indexOf('\n', i);
    else if (c === '\n') {
      out.push({ kind: 'end' });
      i = heredocs.length > 0 ? pastBodies(s, i + 1, heredocs) : i + 1;
      heredocs = [];
    } else if (c === ';' || c === '|' || c === '(' || c === ')' || (c === '&' && s[i + 1] !== '>')) {
      out.push(c === '(' ? { kind: 'end', depth: 1 } : c === ')' ? { kind: 'end', depth: -1 } : { kind: 'end' });
      i += c !== '(' && c !== ')' && (s[i + 1] === c || (c === '|' && s[i + 1] === '&')) ? 2 : 1;
    } else {
      let fd: number | undefined;
      let op = REDIRECT_OPS.find((o) => s.startsWith(o, i));
      if (op === undefined) {
        const read = readWord(s, i, dialect);
        if (read === undefined) return undefined;
        // a descriptor's number written against its redirection (`2>`) belongs to it
        const after = REDIRECT_OPS.find((o) => s.startsWith(o, read.end) && !o.startsWith('&'));
        if (!/^\d+$/.test(read.word.text) || read.end - i !== read.word.text.length || after === undefined) {
          out.push({ kind: 'word', word: read.word });
          i = read.end;
          continue;
        }
        fd = Number(read.word.text);
        op = after;
        i = read.end;
      }
      i += op.length;
      if (op === '<<' || op === '<<-') {
        while (s[i] === ' ' || s[i] === '\t') i++;
        const tag = readWord(s, i, dialect);
        if (tag === undefined) return undefined;
        heredocs.push({ tag: tag.word.text, tabs: op === '<<-' });
        i = tag.end;
      } else out.push({ kind: 'redirect', op, fd });
    }
  }
  return out;
}

/** What a redirection operator does with the word after it (undefined: nothing with a file, e.g. `2>&1`). */
function redirectOf(op: string, fd: number | undefined, target: ShellWord): ShellRedirect | undefined {
  if (op === '>&' && /^(?:\d+|-)$/.test(target.text)) return undefined;
  if (op === '<&' || op === '<>' || op === '<<<') return undefined;
  const both = op.startsWith('&') || op === '>&';
  const kind = op === '<' ? '<' : op.endsWith('>>') ? '>>' : '>';
  return { op: kind, fd, both, target };
}

/** The simple commands of a shell script, in order; undefined when it cannot be read (an unclosed quote). */
export function simpleCommands(script: string, dialect: ShellDialect = 'posix'): SimpleCommand[] | undefined {
  const list = tokens(script, dialect);
  if (list === undefined) return undefined;
  const commands: SimpleCommand[] = [];
  let words: ShellWord[] = [];
  let redirects: ShellRedirect[] = [];
  let depth = 0;
  const end = () => {
    if (words.length > 0 || redirects.length > 0) commands.push({ words, redirects, grouped: depth > 0 });
    words = [];
    redirects = [];
  };
  for (let t = 0; t < list.length; t++) {
    const token = list[t] as Token;
    if (token.kind === 'end') {
      end();
      depth += token.depth ?? 0;
    } else if (token.kind === 'word') words.push(token.word);
    else {
      const next = list[t + 1];
      if (next?.kind !== 'word') continue;
      t++;
      const redirect = redirectOf(token.op, token.fd, next.word);
      if (redirect !== undefined) redirects.push(redirect);
    }
  }
  end();
  return commands;
}
