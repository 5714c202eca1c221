/**
 * The files a shell command only printed (`cat`, `head`, `tail`, `nl`, `sed -n '…p'`): reads, as an agent that works
 * through its shell reads (Codex's `sed -n '1,200p' README.md`). Read conservatively: a script is cut at `&&`, `||`,
 * `;`, `|` and newlines into simple commands, and a command with a redirection, an expansion, a glob or a quote it
 * cannot close says nothing. Anything else a shell did to files stays unknown. Browser-safe.
 * @module
 */

/** Printers and how each names its files: every argument that is no option. */
const PRINTERS = new Set(['cat', 'head', 'tail', 'nl', 'sed']);
/** `head` and `tail` options that take the next argument as their value. */
const VALUED = new Set(['-n', '-c', '--lines', '--bytes']);
/** A `sed` script that only prints lines: `1,200p`, `$p`, `10p;20p`. */
const PRINT_SCRIPT = /^\s*(?:(?:\d+|\$)(?:,(?:\d+|\$))?p\s*;?\s*)+$/;

type Word = { readonly text: string; readonly plain: boolean };

/**
 * The script as simple commands of words, or undefined where it cannot be read plainly: a word is `plain` when it
 * holds no expansion, glob or redirection (quoted text is plain as written).
 */
function simpleCommands(script: string): Word[][] | undefined {
  const commands: Word[][] = [[]];
  let word = '';
  let plain = true;
  let started = false;
  const end = () => {
    if (started) commands.at(-1)?.push({ text: word, plain });
    word = '';
    plain = true;
    started = false;
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i] as string;
    if (c === "'") {
      const close = script.indexOf("'", i + 1);
      if (close === -1) return undefined;
      word += script.slice(i + 1, close);
      started = true;
      i = close;
    } else if (c === '"') {
      const close = script.indexOf('"', i + 1);
      if (close === -1) return undefined;
      const inner = script.slice(i + 1, close);
      if (/[$`\\]/.test(inner)) plain = false;
      word += inner;
      started = true;
      i = close;
    } else if (c === '\\') {
      word += script[i + 1] ?? '';
      started = true;
      i++;
    } else if (c === ' ' || c === '\t') {
      end();
    } else if (c === '\n' || c === ';' || c === '|' || c === '&') {
      end();
      // `&&`, `||`, `;`, `|`, a newline: the next simple command (`&` alone, in the background, as well)
      if (script[i + 1] === c) i++;
      if ((commands.at(-1)?.length ?? 0) > 0) commands.push([]);
    } else {
      if ('<>$`*?[{(~'.includes(c)) plain = false;
      word += c;
      started = true;
    }
  }
  end();
  return commands.filter((words) => words.length > 0);
}

/** The files one simple command prints, or none. */
function printed(words: readonly Word[]): string[] {
  if (words.some((w) => !w.plain)) return [];
  const [name, ...args] = words.map((w) => w.text);
  if (name === undefined || !PRINTERS.has(name)) return [];
  const files: string[] = [];
  let script = name !== 'sed';
  let quiet = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') continue;
    if (arg.startsWith('-') && arg !== '-') {
      if (name === 'sed') {
        if (arg === '-n' || arg === '--quiet' || arg === '--silent') quiet = true;
        // an in-place edit, a script from a file or given by -e: not only a print
        else return [];
      }
      if ((name === 'head' || name === 'tail') && VALUED.has(arg)) i++;
      continue;
    }
    if (!script) {
      if (!quiet || !PRINT_SCRIPT.test(arg)) return [];
      script = true;
      continue;
    }
    if (arg !== '-') files.push(arg);
  }
  return files;
}

/** Redirections of the errors alone (`2>/dev/null`, `2>&1`): what a command prints of its files is the same. */
const ERRORS_ONLY = /(^|[ \t])2>(?:&1|[ \t]*\/dev\/null)(?=$|[ \t;|&\n])/g;

/** The files a shell command line only printed, each once, as it names them (relative to its folder, or absolute). */
export function shellReadsOf(command: string): string[] {
  const commands = simpleCommands(command.replace(ERRORS_ONLY, '$1'));
  if (commands === undefined) return [];
  const files = new Set<string>();
  for (const words of commands) {
    // after a `cd`, a relative name is in another folder than the call's: the rest says nothing
    if (words[0]?.text === 'cd') break;
    for (const file of printed(words)) files.add(file);
  }
  return [...files];
}
