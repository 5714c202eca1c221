#!/usr/bin/env node
/**
 * Write the JSON Schema of every TypedResult kind to docs/schemas/<kind>.json (plus index.json), from the
 * built core (run `npx tsc -b packages/core` first). The schemas come from `typedResultJsonSchemas()`, i.e.
 * from the zod definitions the parser validates against; json-schema.test.ts checks the files stay in sync.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const { typedResultJsonSchemas } = await import(join(repoRoot, 'packages/core/dist/model/json-schema.js'));
const outDir = join(repoRoot, 'docs/schemas');
mkdirSync(outDir, { recursive: true });
for (const file of readdirSync(outDir)) if (file.endsWith('.json')) rmSync(join(outDir, file));
const schemas = typedResultJsonSchemas();
for (const [kind, schema] of Object.entries(schemas)) {
  writeFileSync(join(outDir, `${kind}.json`), `${JSON.stringify(schema, null, 2)}\n`);
}
const index = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'TypedResult',
  oneOf: Object.keys(schemas).map((kind) => ({ $ref: `${kind}.json` })),
};
writeFileSync(join(outDir, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
console.log(`${Object.keys(schemas).length} schemas written to ${outDir}`);
