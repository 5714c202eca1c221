/**
 * For tests that read the stylesheet's rules (contrast, bar ink): `styles.css` as the browser gets it, its `@import`s
 * inlined in order as Vite inlines them.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const IMPORT = /^@import "([^"]+)";$/gm;

function inlined(path: string): string {
  return readFileSync(path, 'utf8').replace(IMPORT, (_, relative: string) => inlined(join(dirname(path), relative)));
}

export function stylesheetText(): string {
  return inlined(join(dirname(fileURLToPath(import.meta.url)), '../styles.css'));
}

/** `text` with each `light-dark(light, dark)` replaced by its `theme` branch (nested parentheses kept whole). */
export function inTheme(text: string, theme: 'light' | 'dark'): string {
  const at = text.indexOf('light-dark(');
  if (at < 0) return text;
  const open = at + 'light-dark('.length;
  let depth = 0;
  let comma = -1;
  let end = open;
  for (; end < text.length; end++) {
    const c = text[end];
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) break;
      depth--;
    } else if (c === ',' && depth === 0 && comma < 0) comma = end;
  }
  const branch = theme === 'light' ? text.slice(open, comma) : text.slice(comma + 1, end);
  return text.slice(0, at) + inTheme(branch.trim(), theme) + inTheme(text.slice(end + 1), theme);
}

/**
 * The theme's custom properties as `theme` resolves them: the first `:root` rule's (where theme.css writes each colour
 * once, as `light-dark(light, dark)`), each `var(--name)` replaced by that property's value as the browser does.
 */
export function themeVariables(theme: 'light' | 'dark', css = stylesheetText()): Record<string, string> {
  const start = css.indexOf(':root {');
  const body = css.slice(start, css.indexOf('\n}', start));
  const vars: Record<string, string> = Object.fromEntries(
    [...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [
      m[1],
      inTheme((m[2] ?? '').replace(/\s+/g, ' ').trim(), theme),
    ]),
  );
  const expand = (value: string, depth = 0): string =>
    depth > 8 ? value : value.replace(/var\((--[\w-]+)\)/g, (_, name: string) => expand(vars[name] ?? '', depth + 1));
  return Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, expand(value)]));
}
