/**
 * Migration 30 and the team's tool filter, core's rule (`isOfTool`): a call written under the name, named so now, or
 * named now what its own agent calls the name now (a former name, `Task`, selects Claude Code's whole `Agent`), as the
 * local index's. The migration indexes calls by the name written, for the first of those conditions. Shipped: never
 * edit the migration's text, add a migration.
 * @module
 */
import { type AgentId, isOfTool, toolTargets } from '@agentdash/core';
import type { Sql } from './db.js';

export const TOOL_FILTER_MIGRATIONS = [
  {
    version: 30,
    name: 'calls by the name they were written under, for the filter of a former name',
    sql: 'create index calls_written_tool on calls (tool);',
  },
] as const;

/** The condition on calls `c` of sessions `s` of the tool `tool`. */
export function toolCondition(sql: Sql, tool: string) {
  const formers = toolTargets(tool).map(
    ([agent, canonical]) => sql` or (s.agent = ${agent} and c.canonical = ${canonical})`,
  );
  return sql`(c.tool = ${tool} or c.canonical = ${tool}${formers.reduce((all, one) => sql`${all}${one}`, sql``)})`;
}

/** The same rule over rows in memory (`stats`): each call with its agent. */
export function toolMatcher<R extends { readonly tool: string; readonly canonical: string; readonly agent: string }>(
  tool: string | undefined,
): (row: R) => boolean {
  if (!tool) return () => true;
  return (row) => isOfTool({ name: row.tool, canonical: row.canonical, agent: row.agent as AgentId }, tool);
}
