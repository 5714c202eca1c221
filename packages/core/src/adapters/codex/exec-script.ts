/**
 * What a Codex `exec` script (0.144+: JavaScript run with `tools.*`, printing with `text(…)`) plainly asks of the
 * shell and of `apply_patch`: the command lines it passes as literal strings to `tools.exec_command({cmd: …})`, and
 * the patch envelopes it writes as literal strings when it calls `tools.apply_patch`. Read conservatively: a command
 * or a patch made at run time (a variable, a template with `${…}`, a string joined from parts) is no literal and says
 * nothing. Never throws.
 * @module
 */

const QUOTES = new Set(['"', "'", '`']);
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  v: '\v',
  0: '\0',
};

/**
 * The string literal opening at `at` (a quote): its value, or undefined when it is none to read as written (a template
 * with a substitution, a quote never closed, a bad escape).
 */
export function stringLiteralAt(text: string, at: number): string | undefined {
  const quote = text[at];
  if (quote === undefined || !QUOTES.has(quote)) return undefined;
  let out = '';
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i] as string;
    if (c === quote) return out;
    if (quote === '`' && c === '$' && text[i + 1] === '{') return undefined;
    // a line break ends a quoted string (not a template) unescaped: no literal
    if (quote !== '`' && (c === '\n' || c === '\r')) return undefined;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = text[++i];
    if (e === undefined) return undefined;
    if (e === '\n') continue;
    if (e === 'x' || e === 'u') {
      const braced = e === 'u' && text[i + 1] === '{';
      const hex = braced
        ? /^\{([0-9a-fA-F]{1,6})\}/.exec(text.slice(i + 1))
        : new RegExp(`^([0-9a-fA-F]{${e === 'x' ? 2 : 4}})`).exec(text.slice(i + 1));
      const code = hex ? Number.parseInt(hex[1] as string, 16) : Number.NaN;
      if (!hex || code > 0x10ffff) return undefined;
      out += String.fromCodePoint(code);
      i += (hex[0] as string).length;
      continue;
    }
    out += SIMPLE_ESCAPES[e] ?? e;
  }
  return undefined;
}

/** `cmd:` as an object's key (an `exec_command` call's), the literal after it. */
const CMD_KEY = /\bcmd\s*:\s*/g;
/** A literal that opens a patch envelope. */
const PATCH_OPEN = /["'`]\*\*\* Begin Patch/g;

/** The literal command lines and patches of a Codex `exec` script, in the order written. */
export function execScriptCalls(script: string): { readonly commands: string[]; readonly patches: string[] } {
  const commands: string[] = [];
  const patches: string[] = [];
  if (script.includes('tools.exec_command')) {
    for (const match of script.matchAll(CMD_KEY)) {
      const value = stringLiteralAt(script, match.index + match[0].length);
      if (value !== undefined && value.trim() !== '') commands.push(value);
    }
  }
  if (script.includes('tools.apply_patch')) {
    for (const match of script.matchAll(PATCH_OPEN)) {
      const value = stringLiteralAt(script, match.index);
      if (value !== undefined) patches.push(value);
    }
  }
  return { commands, patches };
}
