import { canonicalToolName } from '@agentdash/core';
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
    const [tool, ...more] = positionals;
    if (more.length > 0)
      throw new UsageError(`schema takes one TOOL; got ${positionals.length}: ${positionals.join(' ')}`);
    if (tool === undefined) {
      const out: SchemaJson = { schemas };
      writeJson(ctx, out);
      return;
    }
    const key = schemaKeyOf(tool, Object.keys(schemas));
    if (key === undefined) {
      throw new UsageError(`no schema for "${tool}"; known: ${Object.keys(schemas).sort().join(', ')}`);
    }
    writeJson(ctx, schemas[key]);
  },
};

/** A tool name (Bash, Task, KillShell, mcp__s__t) or a result kind (bash, task-output) → the schema key. */
function schemaKeyOf(tool: string, keys: readonly string[]): string | undefined {
  if (keys.includes(tool)) return tool;
  if (tool.startsWith('mcp__') && keys.includes('mcp')) return 'mcp';
  const kebab = canonicalToolName(tool)
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/-tool$/, '');
  if (keys.includes(kebab)) return kebab;
  return keys.find((k) => k.toLowerCase() === tool.toLowerCase());
}
