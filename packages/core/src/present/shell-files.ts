/**
 * What a shell command plainly did to files, read from its command line (`shellScript`'s simple commands): the files
 * it printed (`cat`, `head`, `tail`, `nl`, `sed -n '…p'`: reads, as an agent that works through its shell reads,
 * Codex's `sed -n '1,200p' README.md`), wrote (`>`, `tee`, `cp`'s copy), appended to (`>>`, `tee -a`), edited in
 * place (`sed -i`) or put back as the repository has them (`git checkout -- f`, `git restore f`), deleted (`rm`,
 * `git rm`) and moved (`mv`, `git mv`). A relative name after a `cd` is joined to the folder it went to (Claude
 * Code's `cd /path/to/project && …`). Read conservatively: a word with an expansion or a glob names nothing known,
 * and after a `cd` to a folder not known (a bare `cd`, `-`, an expansion, one in parentheses) the rest of the script
 * says nothing. Anything else a shell did to files (a program it ran, a script's writes) stays unknown.
 * Browser-safe.
 * @module
 */
import { joinedPath } from './paths.js';
import { powershellTouches } from './shell-powershell.js';
import {
  bare,
  intoFolder,
  type ShellDialect,
  type ShellTouch,
  type ShellWord,
  type SimpleCommand,
  simpleCommands,
} from './shell-script.js';

export type { ShellTouch } from './shell-script.js';

/** Printers and how each names its files: every argument that is no option. */
const PRINTERS = new Set(['cat', 'head', 'tail', 'nl', 'sed']);
/** `head` and `tail` options that take the next argument as their value. */
const VALUED = new Set(['-n', '-c', '--lines', '--bytes']);
/** A `sed` script that only prints lines: `1,200p`, `$p`, `10p;20p`. */
const PRINT_SCRIPT = /^\s*(?:(?:\d+|\$)(?:,(?:\d+|\$))?p\s*;?\s*)+$/;
/** Words before a command that leave it the command it is (`then rm x`, `sudo mv a b`). */
const PREFIXES = new Set(['then', 'do', 'else', 'time', 'sudo', '!']);
/** `sed -i` with its suffix and any flags before it (`-i`, `-i.bak`, `-Ei`, `--in-place=.orig`). */
const IN_PLACE = /^(?:-[EnrsuzE]*i.*|--in-place(?:=.*)?)$/;

/** The arguments that are no option (all of them after `--`), and the options. */
function operands(args: readonly string[], valued: ReadonlySet<string> = new Set()) {
  const files: string[] = [];
  const options: { name: string; value?: string }[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg !== '-')
      options.push(valued.has(arg) ? { name: arg, value: args[++i] } : { name: arg });
    else files.push(arg);
  }
  return { files, options };
}

/** The files `sed` prints (`-n` with a printing script) or edits in place (`-i`); none for anything else. */
function sedTouches(args: readonly string[]): ShellTouch[] {
  let inPlace = false;
  let quiet = false;
  let scriptGiven = false;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (IN_PLACE.test(arg)) {
      inPlace = true;
      // BSD's `-i ''`: no backup
      if (arg.endsWith('i') && args[i + 1] === '') i++;
    } else if (arg === '-n' || arg === '--quiet' || arg === '--silent') quiet = true;
    else if (arg === '-e' || arg === '-f' || arg === '--expression' || arg === '--file') {
      scriptGiven = true;
      i++;
    } else if (arg === '-E' || arg === '-r' || arg === '--regexp-extended') continue;
    else if (arg.startsWith('-') && arg !== '-') return [];
    else rest.push(arg);
  }
  const [script, ...files] = scriptGiven ? ['', ...rest] : rest;
  if (inPlace) return files.map((path) => ({ path, use: 'edit' }));
  if (!quiet || scriptGiven || script === undefined || !PRINT_SCRIPT.test(script)) return [];
  return files.filter((f) => f !== '-').map((path) => ({ path, use: 'read' }));
}

/** `mv` and `cp`: the sources and where each went (into a folder: `-t`, several sources, a name ending in `/`). */
function destinations(args: readonly string[]): { from: string; to: string }[] {
  const { files, options } = operands(args, new Set(['-t', '-S', '--suffix', '--target-directory']));
  const dir = options.find((o) => o.name === '-t' || o.name === '--target-directory')?.value;
  const named = options.find((o) => o.name.startsWith('--target-directory='))?.name.split('=')[1];
  const folder = dir ?? named;
  if (folder !== undefined) return files.map((from) => ({ from, to: intoFolder(folder, from) }));
  if (files.length < 2) return [];
  const target = files.at(-1) as string;
  const sources = files.slice(0, -1);
  const into = sources.length > 1 || /[\\/]$/.test(target);
  return sources.map((from) => ({ from, to: into ? intoFolder(target, from) : target }));
}

/** `git restore` options that take the next argument as their value. */
const RESTORE_VALUED = new Set(['-s', '--source', '--pathspec-from-file']);

/**
 * The files `git checkout … -- FILES` and `git restore FILES` put back in the worktree as the repository has them:
 * changed (edited back). Not `git restore --staged` alone (the index only), nor a branch's checkout, nor the whole
 * tree (`.`).
 */
function gitRestored(sub: string | undefined, args: readonly string[]): string[] {
  if (sub === 'checkout') {
    const dashes = args.indexOf('--');
    return dashes === -1 ? [] : args.slice(dashes + 1).filter((f) => f !== '.');
  }
  if (sub !== 'restore') return [];
  const { files, options } = operands(args, RESTORE_VALUED);
  const names = options.map((o) => o.name);
  const staged = names.some((n) => n === '-S' || n === '--staged');
  const worktree = names.some((n) => n === '-W' || n === '--worktree');
  if ((staged && !worktree) || names.includes('--pathspec-from-file')) return [];
  return files.filter((f) => f !== '.');
}

/** What one simple command did to files by its name and arguments (its redirections apart). */
function commandTouches(name: string, args: readonly string[], printedAway: boolean): ShellTouch[] {
  if (name === 'git') {
    const [sub, ...rest] = args;
    if (sub === 'rm' && !rest.includes('--cached')) return commandTouches('rm', rest, printedAway);
    if (sub === 'mv') return commandTouches('mv', rest, printedAway);
    return gitRestored(sub, rest).map((path) => ({ path, use: 'edit' }));
  }
  switch (name) {
    case 'rm':
      return operands(args).files.map((path) => ({ path, use: 'delete' }));
    case 'mv':
      return destinations(args).map(({ from, to }) => ({ path: from, use: 'move', movedTo: to }));
    case 'cp':
      return destinations(args).map(({ to }) => ({ path: to, use: 'write' }));
    case 'tee': {
      const { files, options } = operands(args);
      const append = options.some((o) => o.name === '-a' || o.name === '--append');
      return files.map((path) => ({ path, use: append ? 'edit' : 'write' }));
    }
    case 'sed':
      return sedTouches(args).filter((t) => t.use !== 'read' || !printedAway);
    default:
      if (!PRINTERS.has(name) || printedAway) return [];
      return printedFiles(name, args).map((path) => ({ path, use: 'read' }));
  }
}

/** The files `cat`, `head`, `tail` or `nl` prints: every argument that is no option (nor an option's value). */
function printedFiles(name: string, args: readonly string[]): string[] {
  const valued = name === 'head' || name === 'tail' ? VALUED : new Set<string>();
  return operands(args, valued).files.filter((f) => f !== '-');
}

/** What one simple command did: its redirections' files, and its own by its name when every word is plain. */
function touchesOfCommand(command: SimpleCommand, dialect: ShellDialect): ShellTouch[] {
  const touches: ShellTouch[] = [];
  for (const r of command.redirects) {
    if (r.op === '<' || !r.target.plain || r.target.text.startsWith('/dev/')) continue;
    touches.push({ path: r.target.text, use: r.op === '>>' ? 'edit' : 'write' });
  }
  // its output went to a file: what it printed, the agent did not read
  const printedAway = command.redirects.some((r) => r.op !== '<' && (r.fd === undefined || r.fd === 1 || r.both));
  let words: readonly ShellWord[] = command.words;
  while (words.length > 1 && (PREFIXES.has(words[0]?.text ?? '') || /^[A-Za-z_]\w*=/.test(words[0]?.text ?? '')))
    words = words.slice(1);
  if (words.length === 0 || words.some((w) => !w.plain)) return touches;
  const [name = '', ...args] = words.map((w) => w.text);
  // PowerShell's own cmdlets and aliases (its `rm` is Remove-Item); git is git in either
  if (dialect === 'powershell' && name !== 'git')
    return [...touches, ...(powershellTouches(name, args, printedAway) ?? [])];
  return [...touches, ...commandTouches(name, args, printedAway)];
}

/** The folder a `cd` went to, joined to `folder` (undefined: the call's own), or null when it is not known. */
function wentTo(c: SimpleCommand, folder: string | undefined): string | undefined | null {
  const [, ...rest] = c.words;
  // PowerShell's `Set-Location -Path X`
  const [target, ...more] = /^-(path|literalpath)$/i.test(rest[0]?.text ?? '') ? rest.slice(1) : rest;
  if (c.grouped || target === undefined || more.length > 0 || !target.plain || target.text.startsWith('-')) return null;
  return within(target.text, folder);
}

/** `path` as the call's folder sees it: joined to the folder a `cd` went to (undefined: the call's own). */
const within = (path: string, folder: string | undefined): string =>
  folder === undefined ? path : joinedPath(path, bare(folder));

/** Commands that change the shell's folder: POSIX shells' and PowerShell's (`Set-Location` and its aliases). */
const CD = new Set(['cd', 'pushd', 'chdir', 'set-location', 'sl', 'push-location']);
const BACK = new Set(['popd', 'pop-location']);

/**
 * The files a shell command line touched, in its order, each use once, as it names them (relative to the call's
 * folder, or absolute; a folder's trailing separator taken off).
 */
export function shellFilesOf(command: string, dialect: ShellDialect = 'posix'): ShellTouch[] {
  const commands = simpleCommands(command, dialect);
  if (commands === undefined) return [];
  const out = new Map<string, ShellTouch>();
  let folder: string | undefined;
  for (const c of commands) {
    const name = c.words[0]?.text.toLowerCase() ?? '';
    if (CD.has(name) || BACK.has(name)) {
      const next = BACK.has(name) ? null : wentTo(c, folder);
      // in a folder not known, a relative name says nothing: the rest neither
      if (next === null) break;
      folder = next;
      continue;
    }
    for (const touch of touchesOfCommand(c, dialect)) {
      const path = bare(within(touch.path, folder));
      if (path === '' || path === '-') continue;
      const movedTo = touch.movedTo === undefined ? {} : { movedTo: bare(within(touch.movedTo, folder)) };
      out.set(`${touch.use}\u0000${path}\u0000${movedTo.movedTo ?? ''}`, { path, use: touch.use, ...movedTo });
    }
  }
  return [...out.values()];
}

/** The files a shell command line only printed, each once (`shellFilesOf`'s reads). */
export function shellReadsOf(command: string): string[] {
  return shellFilesOf(command)
    .filter((t) => t.use === 'read')
    .map((t) => t.path);
}
