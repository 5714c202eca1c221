#!/usr/bin/env node
/**
 * Import cycles in the packages' sources: every relative import (type-only ones too) of every .ts/.tsx file under
 * packages/<name>/src, read with the TypeScript compiler's pre-processor; a cycle is a strongly connected group of
 * files. `node scripts/import-cycles.mjs` prints them and fails when there is any (part of `npm run lint`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx)$/;

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The file a relative specifier names (`./x.js` → x.ts, `./x` → x.tsx or x/index.ts). */
function resolveImport(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx|mjs)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Every cycle among the source files under `dir`, each as the files in it (relative to `dir`), sorted. */
export function findImportCycles(dir) {
  const files = sourceFiles(dir);
  const edges = new Map();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((f) => f.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolveImport(file, name))
      .filter((target) => target !== undefined);
    edges.set(file, targets);
  }
  // Tarjan's strongly connected components, iterative so deep graphs cannot overflow the stack.
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const cycles = [];
  let counter = 0;
  for (const root of files) {
    if (index.has(root)) continue;
    const work = [[root, 0]];
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, next] = frame;
      if (next === 0) {
        index.set(node, counter);
        low.set(node, counter);
        counter += 1;
        stack.push(node);
        onStack.add(node);
      }
      const targets = edges.get(node) ?? [];
      if (next < targets.length) {
        frame[1] = next + 1;
        const target = targets[next];
        if (!index.has(target)) work.push([target, 0]);
        else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0]), low.get(node)));
      if (low.get(node) === index.get(node)) {
        const group = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          group.push(member);
        } while (member !== node);
        const selfLoop = group.length === 1 && (edges.get(node) ?? []).includes(node);
        if (group.length > 1 || selfLoop) cycles.push(group.map((f) => relative(dir, f)).sort());
      }
    }
  }
  return cycles.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Cycles per package (`packages/<name>/src`). */
export function packageImportCycles(root = repoRoot) {
  const out = {};
  for (const name of readdirSync(join(root, 'packages'))) {
    const src = join(root, 'packages', name, 'src');
    if (existsSync(src)) out[name] = findImportCycles(src);
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = Object.entries(packageImportCycles()).filter(([, cycles]) => cycles.length > 0);
  for (const [name, cycles] of found) {
    for (const cycle of cycles) console.error(`import cycle in packages/${name}/src: ${cycle.join(' → ')}`);
  }
  if (found.length > 0) process.exit(1);
  console.log('no import cycles');
}
