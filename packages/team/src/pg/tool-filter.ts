/**
 * Migration 30 and the team's tool filter: a tool's former name (`Task`) selects the whole tool it is now (`Agent`),
 * as the local index's (`sessionCallsWhere`): the calls written or named canonically so, and those of the canonical
 * name of a call written under the name given (one lookup, on `calls_written_tool`). Shipped: never edit the
 * migration's text, add a migration.
 * @module
 */
import type { Sql } from './db.js';

export const TOOL_FILTER_MIGRATIONS = [
  {
    version: 30,
    name: 'calls by the name they were written under, for the filter of a former name',
    sql: 'create index calls_written_tool on calls (tool);',
  },
] as const;

/** The condition on calls `c` of the tool `tool` (written, canonical, or a former name of it). */
export function toolCondition(sql: Sql, tool: string) {
  return sql`(c.tool = ${tool} or c.canonical = ${tool}
    or c.canonical = (select w.canonical from calls w where w.tool = ${tool} limit 1))`;
}

/** The same rule over rows in memory: `rows` the calls of the team (`stats`). */
export function toolMatcher<R extends { readonly tool: string; readonly canonical: string }>(
  rows: readonly R[],
  tool: string | undefined,
): (row: R) => boolean {
  if (!tool) return () => true;
  const former = rows.find((row) => row.tool === tool)?.canonical;
  return (row) => row.tool === tool || row.canonical === tool || (former !== undefined && row.canonical === former);
}
