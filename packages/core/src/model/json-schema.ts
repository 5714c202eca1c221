import { type TypedResultKind, typedResultKinds, typedResultVariantSchemas } from './typed-result.js';
import { z } from './zod.js';

/** A JSON Schema document (draft 2020-12). */
export type JsonSchema = Record<string, unknown>;

let cache: Readonly<Record<TypedResultKind, JsonSchema>> | undefined;

/**
 * JSON Schema (draft 2020-12) of every `TypedResult` variant, keyed by kind. Generated with `z.toJSONSchema`
 * from the same zod schemas the parser validates against.
 */
export function typedResultJsonSchemas(): Readonly<Record<TypedResultKind, JsonSchema>> {
  if (cache === undefined) {
    const out = {} as Record<TypedResultKind, JsonSchema>;
    for (const kind of typedResultKinds) {
      const schema = z.toJSONSchema(typedResultVariantSchemas[kind], { unrepresentable: 'any' }) as JsonSchema;
      out[kind] = { ...schema, title: `TypedResult:${kind}` };
    }
    cache = out;
  }
  return cache;
}

/** JSON Schema of one kind's `TypedResult` variant. */
export function typedResultSchema(kind: TypedResultKind): JsonSchema {
  return typedResultJsonSchemas()[kind];
}
