import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { typedResultJsonSchemas, typedResultSchema } from './json-schema.js';
import { typedResultKinds } from './typed-result.js';

const schemasDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../docs/schemas');

describe('typed result JSON Schemas', () => {
  const ajv = new Ajv2020({ strict: false });

  it('one schema per kind, each compiling, keyed by its kind constant', () => {
    const schemas = typedResultJsonSchemas();
    expect(Object.keys(schemas).sort()).toEqual([...typedResultKinds].sort());
    expect(typedResultKinds).toContain('error');
    expect(typedResultKinds).toContain('unknown');
    expect(typedResultKinds).toContain('mcp');
    for (const kind of typedResultKinds) {
      const schema = typedResultSchema(kind);
      expect(schema).toBe(schemas[kind]);
      expect((schema.properties as { kind: { const: string } }).kind.const).toBe(kind);
      ajv.compile(schema);
    }
  });

  it('accepts a well-formed result and rejects a wrong one', () => {
    const validate = ajv.compile(typedResultSchema('grep'));
    const good = { kind: 'grep', tool: 'Grep', data: { mode: 'count', filenames: [], numFiles: 2, numMatches: 3 } };
    expect(validate(good)).toBe(true);
    expect(validate({ ...good, data: { ...good.data, numFiles: 'two' } })).toBe(false);
    expect(validate({ ...good, kind: 'glob' })).toBe(false);
    expect(validate({ kind: 'grep', tool: 'Grep', data: { mode: 'count' } })).toBe(false);
    const read = ajv.compile(typedResultSchema('read'));
    expect(read({ kind: 'read', tool: 'Read', data: { variant: 'pdf', filePath: '/a.pdf' } })).toBe(true);
    expect(read({ kind: 'read', tool: 'Read', data: { variant: 'scroll', filePath: '/a' } })).toBe(false);
  });

  it.skipIf(!existsSync(schemasDir))(
    'docs/schemas matches the generated schemas (scripts/write-json-schemas.mjs)',
    () => {
      for (const kind of typedResultKinds) {
        const written = JSON.parse(readFileSync(join(schemasDir, `${kind}.json`), 'utf8')) as unknown;
        expect(written).toEqual(typedResultSchema(kind));
      }
    },
  );
});
