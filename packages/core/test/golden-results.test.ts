import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { discoverFiles, groupSessions } from '../src/io/discover.js';
import { typedResultJsonSchemas } from '../src/model/json-schema.js';
import { toEnvelope } from '../src/results/envelope.js';
import { loadSession } from '../src/session/load-session.js';

/**
 * Golden outputs: real calls of every tool of every corpus version (extracted by
 * scripts/make-golden-fixtures.mjs into fixtures/golden/<version>/<tool>.jsonl, committed, so this runs in a
 * user's clone too), typed by the full pipeline and compared with the committed <tool>.expected.json.
 */
const goldenDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/golden');
const versions = readdirSync(goldenDir).sort();

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new Map(
  Object.entries(typedResultJsonSchemas()).map(([kind, schema]) => [kind, ajv.compile(schema)]),
);

describe('golden typed results', () => {
  it('covers every corpus version', () => {
    expect(versions).toEqual(['1.0.128', '2.0.50', '2.0.76', '2.1.330']);
  });

  for (const version of versions) {
    const files = readdirSync(join(goldenDir, version)).filter((f) => f.endsWith('.jsonl'));
    for (const file of files) {
      const tool = file.replace(/\.jsonl$/, '');
      it(`${version} ${tool}`, async () => {
        const { files: found } = await discoverFiles([join(goldenDir, version, file)]);
        const [group] = groupSessions(found);
        expect(group).toBeDefined();
        const session = await loadSession(group!);
        const calls = session.calls.filter((c) => c.result !== undefined);
        expect(calls.length).toBeGreaterThan(0);
        for (const call of calls) {
          const typed = call.result!.typed;
          // Every tool of the corpus has a kind: only the deliberately unknown tool may end as `unknown`.
          if (tool !== 'NoSuchTool') expect(typed.kind).not.toBe('unknown');
          expect(call.result!.error !== undefined).toBe(call.result!.isError);
          const validate = validators.get(typed.kind)!;
          expect(validate(JSON.parse(JSON.stringify(typed))), JSON.stringify(validate.errors)).toBe(true);
        }
        const out = calls.map((call) => ({
          id: call.id,
          name: call.name,
          status: call.status,
          typed: call.result?.typed,
          error: call.result?.error,
          images: call.result?.images.map((i) => ({ mediaType: i.mediaType, dataLength: i.data.length })),
          envelope: toEnvelope(call),
        }));
        await expect(`${JSON.stringify(out, null, 2)}\n`).toMatchFileSnapshot(
          join(goldenDir, version, `${tool}.expected.json`),
        );
      });
    }
  }
});
