/** Calls per tool of one session, from the stored rows (no transcript is read). */
import type { Store } from './scope.js';
import { sessionKeyOfRef } from './session-queries.js';
import { prepared } from './statements.js';

/**
 * Unique tool_use ids per canonical tool name in the files of the session `ref` names (see `getSession`): what a loaded session's calls count, so a
 * header can show it before the session is parsed (a continued session's copied calls included).
 */
export function sessionToolCounts(store: Store, ref: string): Record<string, number> {
  const key = sessionKeyOfRef(store, ref);
  if (key === undefined) return {};
  const rows = prepared(
    store.db,
    `SELECT canonical_tool(c.name) AS tool, COUNT(DISTINCT c.tool_use_id) AS n
       FROM calls c JOIN files f ON f.id = c.file_id WHERE f.session_id = ? GROUP BY tool ORDER BY tool`,
  ).all(key) as { tool: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.tool, r.n]));
}
