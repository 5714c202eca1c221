import { typedResultJsonSchemas } from '@agentdash/core';

/** JSON Schemas of the typed results, keyed by result kind. */
export function typedResultSchemas(): Record<string, unknown> {
  return { ...typedResultJsonSchemas() };
}
