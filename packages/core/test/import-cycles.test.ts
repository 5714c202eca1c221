import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain ESM script without type declarations (it runs under `npm run lint` too)
import { findImportCycles, packageImportCycles } from '../../../scripts/import-cycles.mjs';

describe('import cycles', () => {
  it('no package has one (type-only imports count)', () => {
    const all = packageImportCycles() as Record<string, string[][]>;
    expect(Object.keys(all).sort()).toEqual(['cli', 'core', 'index', 'server', 'team', 'testing', 'web']);
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
});
