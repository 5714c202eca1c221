/** Escapes with a letter of their own, as a shell's `$'…'` writes them. */
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

/**
 * Characters typed into a process, on one line with every control character visible: newline, return and tab as
 * `\n`, `\r`, `\t`, a backslash as `\\`, other control characters in caret notation (`^D` for end of input, `^C`,
 * `^[` for escape, `^?` for delete).
 * @example formatTypedChars('typed into cat\n\u0004') // 'typed into cat\\n^D'
 */
export function formatTypedChars(chars: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  return chars.replace(/[\u0000-\u001f\u007f\\]/g, (c) => {
    const named = NAMED[c];
    if (named !== undefined) return named;
    const code = c.charCodeAt(0);
    return code === 0x7f ? '^?' : `^${String.fromCharCode(code + 64)}`;
  });
}
