#!/usr/bin/env node
// The renovation's rule, kept: no source file (code or test, TypeScript, JavaScript or CSS) over 400 lines. A longer
// file is split by what its parts do; this check, part of `npm run lint` (so of `npm test`), names every file past it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_LINES = 400;
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = ['packages', 'scripts', 'bench', 'test', '.ci'];
const SKIP = new Set(['node_modules', 'dist', 'bundle', 'fixtures', 'samples', '.git']);
const SOURCE = /\.(?:ts|tsx|mts|js|mjs|cjs|css)$/;

function* sources(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

const long = [];
for (const root of ROOTS) {
  for (const path of sources(join(repo, root))) {
    const text = readFileSync(path, 'utf8');
    const lines = text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_LINES) long.push(`${relative(repo, path)}: ${lines} lines`);
  }
}
if (long.length > 0) {
  console.error(`source files over ${MAX_LINES} lines (split each by what its parts do):\n  ${long.join('\n  ')}`);
  process.exit(1);
}
console.log(`no source file over ${MAX_LINES} lines`);
