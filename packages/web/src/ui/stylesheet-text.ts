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
