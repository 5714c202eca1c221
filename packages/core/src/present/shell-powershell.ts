/**
 * What a PowerShell cmdlet plainly did to files, by its name (or an alias) and its parameters: `Get-Content` printed
 * them (reads), `Set-Content` and `Out-File` wrote them, `Add-Content` (and `Out-File -Append`) appended to them,
 * `Remove-Item` deleted them, `Move-Item` moved them, `Copy-Item` wrote its copy. Names and parameters are matched
 * whole and in any case; a path list (`a,b`) is each of its paths. Browser-safe.
 * @module
 */
import { intoFolder, type ShellTouch } from './shell-script.js';

type Cmdlet = 'read' | 'write' | 'append' | 'delete' | 'move' | 'copy';

/** Each cmdlet and its aliases, by what it does to its paths. */
const CMDLETS: Readonly<Record<string, Cmdlet>> = {
  'get-content': 'read',
  gc: 'read',
  cat: 'read',
  type: 'read',
  'set-content': 'write',
  sc: 'write',
  'out-file': 'write',
  'add-content': 'append',
  ac: 'append',
  'remove-item': 'delete',
  ri: 'delete',
  rm: 'delete',
  del: 'delete',
  erase: 'delete',
  rd: 'delete',
  rmdir: 'delete',
  'move-item': 'move',
  mi: 'move',
  mv: 'move',
  move: 'move',
  'copy-item': 'copy',
  cpi: 'copy',
  cp: 'copy',
  copy: 'copy',
};

/** Parameters naming the paths a cmdlet works on, and the one naming where a move or a copy goes. */
const PATH = new Set(['-path', '-literalpath', '-filepath', '-lp', '-pspath']);
const DESTINATION = new Set(['-destination']);
/** Parameters that take a value (the next argument) and name no path of its own. */
const VALUED = new Set([
  '-tail',
  '-totalcount',
  '-head',
  '-first',
  '-last',
  '-encoding',
  '-delimiter',
  '-readcount',
  '-erroraction',
  '-ea',
  '-warningaction',
  '-stream',
  '-filter',
  '-include',
  '-exclude',
  '-value',
  '-inputobject',
  '-width',
  '-credential',
]);

/** Its path parameters and positional arguments, and its switches. */
function parametersOf(args: readonly string[]) {
  const paths: string[] = [];
  const destinations: string[] = [];
  const positional: string[] = [];
  const switches = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const name = arg.toLowerCase().replace(/:$/, '');
    if (!arg.startsWith('-') || arg === '-') positional.push(arg);
    else if (PATH.has(name)) paths.push(args[++i] ?? '');
    else if (DESTINATION.has(name)) destinations.push(args[++i] ?? '');
    else if (VALUED.has(name)) i++;
    else switches.add(name);
  }
  const list = (values: readonly string[]) => values.flatMap((v) => v.split(',')).filter((v) => v !== '');
  return { paths: list(paths), destinations: list(destinations), positional, switches, list };
}

/**
 * What a cmdlet did to files (its output sent to a file: `printedAway`, so a read it printed the agent did not
 * see); undefined when `name` is no cmdlet read here.
 */
export function powershellTouches(
  name: string,
  args: readonly string[],
  printedAway: boolean,
): ShellTouch[] | undefined {
  const cmdlet = CMDLETS[name.toLowerCase()];
  if (cmdlet === undefined) return undefined;
  const { paths, destinations, positional, switches, list } = parametersOf(args);
  // the first positional argument is the path; a write's second is its value, a move's or copy's its destination
  const named = paths.length > 0 ? paths : list(positional.slice(0, 1));
  switch (cmdlet) {
    case 'read':
      return printedAway ? [] : named.map((path) => ({ path, use: 'read' }));
    case 'write':
    case 'append': {
      const use = cmdlet === 'append' || switches.has('-append') ? 'edit' : 'write';
      return named.map((path) => ({ path, use }));
    }
    case 'delete':
      return named.map((path) => ({ path, use: 'delete' }));
    case 'move':
    case 'copy': {
      const [to] = destinations.length > 0 ? destinations : list(positional.slice(paths.length > 0 ? 0 : 1, 2));
      if (to === undefined) return [];
      const folder = named.length > 1 || /[\\/]$/.test(to);
      return named.map((from) => {
        const target = folder ? intoFolder(to, from) : to;
        return cmdlet === 'move' ? { path: from, use: 'move', movedTo: target } : { path: target, use: 'write' };
      });
    }
  }
}
