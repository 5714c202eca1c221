#!/usr/bin/env node
/**
 * Import cycles in the packages' sources: every relative static import and re-export of every .ts/.tsx file under
 * packages/<name>/src, type-only ones too (`import type`, `import('./x.js').T` in a type), read from the file's syntax
 * tree; a cycle is a strongly connected group of files. A dynamic `import()` expression is not an edge: it runs after
 * the static graph it is written in has been evaluated, so it cannot cause the evaluation-order bugs (a binding read
 * before its module ran) this check is there for; the agent registry reaches each adapter folder's parser so
 * (`core/src/agents/registry.ts`). `node scripts/import-cycles.mjs` prints the cycles and fails when there is any
 * (part of `npm run lint`).
 *
 * It also checks the workspaces against each other: a package's sources import only the `@agentdash/*` packages its
 * package.json declares, and the packages do not depend on each other in a circle, counting a package that ships
 * another's build as depending on it (the server and the CLI serve the dashboard's `dist/`, so the dashboard must
 * not import the server: it talks to it over HTTP, typed by `@agentdash/api`).
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
export function resolveImport(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx|mjs)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * The module specifiers a source file imports statically: import declarations, re-exports, `import x = require()`
 * and import types (`typeof import('./x.js')`), whether type-only or not; not dynamic `import()` expressions.
 */
export function staticSpecifiers(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const out = [];
  const literal = (node) => (node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined);
  const visit = (node) => {
    let specifier;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      specifier = literal(node.moduleSpecifier);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      specifier = literal(node.moduleReference.expression);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      specifier = literal(node.argument.literal);
    }
    if (specifier !== undefined) out.push(specifier);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Every cycle among the source files under `dir`, each as the files in it (relative to `dir`), sorted. */
export function findImportCycles(dir) {
  const files = sourceFiles(dir);
  const edges = new Map();
  for (const file of files) {
    const targets = staticSpecifiers(file, readFileSync(file, 'utf8'))
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

/** Packages that ship another's build (by folder name): they depend on it as much as on what they import. */
export const SHIPS = { server: ['web'], cli: ['web'] };

/** The workspace package an import specifier names (`@agentdash/server/api-types` → `@agentdash/server`). */
function workspaceOf(specifier, names) {
  const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
  return names.has(name) ? name : undefined;
}

/**
 * What is wrong between the workspaces under `root/packages`: imports of a workspace its package.json does not
 * declare, and circles of dependencies (declared ones and `ships`; a workspace only tests depend on is in none).
 * Each problem one line.
 */
export function workspaceProblems(root = repoRoot, ships = SHIPS) {
  const packages = new Map();
  for (const dir of readdirSync(join(root, 'packages'))) {
    const manifest = join(root, 'packages', dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const json = JSON.parse(readFileSync(manifest, 'utf8'));
    const runtime = Object.keys({ ...json.dependencies, ...json.peerDependencies, ...json.optionalDependencies });
    const declared = new Set([...runtime, ...Object.keys({ ...json.devDependencies })]);
    packages.set(json.name, { dir, declared, runtime });
  }
  // A workspace no package depends on at run time (only in devDependencies: the tests' helpers) is in no circle:
  // it is never part of what a package ships.
  const runtimeTargets = new Set([...packages.values()].flatMap((p) => p.runtime));
  const names = new Set(packages.keys());
  const byDir = new Map([...packages].map(([name, p]) => [p.dir, name]));
  const problems = [];
  const edges = new Map();
  for (const [name, { dir, declared }] of packages) {
    const src = join(root, 'packages', dir, 'src');
    const targets = new Set([...declared].filter((d) => names.has(d) && runtimeTargets.has(d)));
    for (const shipped of ships[dir] ?? []) if (byDir.has(shipped)) targets.add(byDir.get(shipped));
    edges.set(name, targets);
    if (!existsSync(src)) continue;
    for (const file of sourceFiles(src)) {
      const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      for (const { fileName } of info.importedFiles) {
        const target = workspaceOf(fileName, names);
        if (target === undefined || target === name || declared.has(target)) continue;
        problems.push(`${relative(root, file)} imports ${target}, which packages/${dir}/package.json does not declare`);
      }
    }
  }
  // a circle: a path from a package back to itself
  const reported = new Set();
  for (const start of names) {
    const stack = [[start, [start]]];
    const seen = new Set();
    while (stack.length > 0) {
      const [node, path] = stack.pop();
      for (const next of edges.get(node) ?? []) {
        if (next === start) {
          const key = [...path].sort().join(' ');
          if (!reported.has(key)) {
            reported.add(key);
            problems.push(`workspace dependency circle: ${[...path, start].join(' → ')}`);
          }
        } else if (!seen.has(next)) {
          seen.add(next);
          stack.push([next, [...path, next]]);
        }
      }
    }
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = Object.entries(packageImportCycles()).filter(([, cycles]) => cycles.length > 0);
  for (const [name, cycles] of found) {
    for (const cycle of cycles) console.error(`import cycle in packages/${name}/src: ${cycle.join(' → ')}`);
  }
  const problems = workspaceProblems();
  for (const problem of problems) console.error(problem);
  if (found.length > 0 || problems.length > 0) process.exit(1);
  console.log('no import cycles; every workspace import declared, no dependency circle');
}
