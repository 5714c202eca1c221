import { typedResultSchemas } from '../core-extras.js';
import { UsageError } from '../errors.js';
import type { SchemaJson } from '../output/json-types.js';
import { COMMON_HELP, type CommandSpec, writeJson } from './common.js';

export const schemaCommand: CommandSpec = {
  name: 'schema',
  usage: 'agentdash schema [TOOL] [--json]',
  summary: 'JSON Schemas of the typed tool results',
  help: `Without TOOL: every typed result's JSON Schema, keyed by kind. With TOOL (a tool name or result kind): that one
schema. The output is JSON either way.

${COMMON_HELP}`,
  options: {},
  async run(ctx, positionals) {
    const schemas = typedResultSchemas();
    if (schemas === undefined) {
      throw new Error('this build of @agentdash/core has no typed-result JSON Schemas (typedResultJsonSchemas)');
    }
    const [tool] = positionals;
    if (tool === undefined) {
      const out: SchemaJson = { schemas };
      writeJson(ctx, out);
      return;
    }
    const key =
      Object.keys(schemas).find((k) => k === tool) ??
      Object.keys(schemas).find((k) => k.toLowerCase() === tool.toLowerCase());
    if (key === undefined) {
      throw new UsageError(`no schema for "${tool}"; known: ${Object.keys(schemas).sort().join(', ')}`);
    }
    writeJson(ctx, schemas[key]);
  },
};
