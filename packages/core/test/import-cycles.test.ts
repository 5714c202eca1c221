import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  findImportCycles,
  packageImportCycles,
  resolveImport,
  staticSpecifiers,
  workspaceProblems,
  // @ts-expect-error a plain ESM script without type declarations (it runs under `npm run lint` too)
} from '../../../scripts/import-cycles.mjs';

describe('import cycles', () => {
  it('no package has one (type-only imports count, dynamic import() expressions do not)', () => {
    const all = packageImportCycles() as Record<string, string[][]>;
    expect(Object.keys(all).sort()).toEqual(['api', 'cli', 'core', 'index', 'server', 'team', 'testing', 'web']);
    expect(Object.values(all).flat()).toEqual([]);
  });

  it('finds a cycle through .js specifiers, .tsx files and folder indexes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentdash-cycles-'));
    try {
      await mkdir(join(dir, 'renderers'));
      await writeFile(join(dir, 'renderers', 'index.tsx'), "import { A } from '../agent';\nexport const R = A;\n");
      await writeFile(join(dir, 'agent.tsx'), "import type { T } from './timeline.js';\nexport const A = 1;\n");
      await writeFile(join(dir, 'timeline.ts'), "import { R } from './renderers';\nexport type T = typeof R;\n");
      await writeFile(join(dir, 'alone.ts'), "import { A } from './agent.js';\nexport const B = A;\n");
      expect(findImportCycles(dir)).toEqual([['agent.tsx', 'renderers/index.tsx', 'timeline.ts']]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('counts static and type-only edges, not a dynamic import() closing the loop', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentdash-cycles-'));
    const write = (name: string, text: string) => writeFile(join(dir, name), text);
    try {
      // The registry's shape: a list imports a descriptor, whose loader reaches a parser that names the list's ids.
      await write('registry.ts', "import { codex } from './descriptor.js';\nexport const agents = [codex];\n");
      await write('parser.ts', "import type { agents } from './registry.js';\nexport type Id = (typeof agents)[0];\n");
      await write('descriptor.ts', "export const codex = { load: () => import('./parser.js') };\n");
      expect(findImportCycles(dir)).toEqual([]);
      // The same loop closed by a type (`import('…')` in a type position) or a static import is a cycle.
      const cycle = [['descriptor.ts', 'parser.ts', 'registry.ts']];
      await write('descriptor.ts', "export const codex = { load: null as unknown as typeof import('./parser.js') };\n");
      expect(findImportCycles(dir)).toEqual(cycle);
      await write('descriptor.ts', "export * from './parser.js';\nexport const codex = {};\n");
      expect(findImportCycles(dir)).toEqual(cycle);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("no adapter's static imports reach agents/adapters.ts, whose top-level await loads the adapters", () => {
    const src = join(dirname(fileURLToPath(import.meta.url)), '../src');
    // Each file's relative imports, parsed once: the adapters' closures share most of their files.
    const edges = new Map<string, string[]>();
    const importsOf = (file: string): string[] => {
      let targets = edges.get(file);
      if (targets === undefined) {
        targets = [];
        for (const specifier of staticSpecifiers(file, readFileSync(file, 'utf8')) as string[]) {
          const target = specifier.startsWith('.') ? (resolveImport(file, specifier) as string | undefined) : undefined;
          if (target !== undefined) targets.push(target);
        }
        edges.set(file, targets);
      }
      return targets;
    };
    const closure = (start: string): Set<string> => {
      const seen = new Set<string>();
      const stack = [start];
      for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
        if (seen.has(file)) continue;
        seen.add(file);
        stack.push(...importsOf(file));
      }
      return seen;
    };
    const awaiting = join(src, 'agents/adapters.ts');
    // The check can see such a path: the session loader reaches it (it reads files through the adapters).
    expect(closure(join(src, 'session/load-session.ts')).has(awaiting)).toBe(true);
    const adapters = readdirSync(join(src, 'adapters')).map((folder) => join(src, 'adapters', folder, 'adapter.ts'));
    expect(adapters.filter((adapter) => closure(adapter).has(awaiting)).map((a) => relative(src, a))).toEqual([]);
  });

  it('no workspace imports a package it does not declare, and none depends on itself through others', () => {
    expect(workspaceProblems()).toEqual([]);
  });

  it('refuses a dashboard that imports the server shipping it, declared or not', async () => {
    const root = await mkdtemp(join(tmpdir(), 'agentdash-workspaces-'));
    const pkg = async (dir: string, json: object, source?: string) => {
      await mkdir(join(root, 'packages', dir, 'src'), { recursive: true });
      await writeFile(join(root, 'packages', dir, 'package.json'), JSON.stringify(json));
      if (source !== undefined) await writeFile(join(root, 'packages', dir, 'src', 'main.ts'), source);
    };
    try {
      await pkg('api', { name: '@agentdash/api' });
      await pkg('server', { name: '@agentdash/server', dependencies: { '@agentdash/api': '0' } });
      await pkg('web', { name: '@agentdash/web' }, "export type * from '@agentdash/server/api-types';\n");
      expect(workspaceProblems(root)).toEqual([
        'packages/web/src/main.ts imports @agentdash/server, which packages/web/package.json does not declare',
      ]);
      await pkg('web', { name: '@agentdash/web', dependencies: { '@agentdash/server': '0' } });
      expect(workspaceProblems(root)).toEqual([
        'workspace dependency circle: @agentdash/server → @agentdash/web → @agentdash/server',
      ]);
      await pkg(
        'web',
        { name: '@agentdash/web', dependencies: { '@agentdash/api': '0' } },
        "export type * from '@agentdash/api';\n",
      );
      expect(workspaceProblems(root)).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
