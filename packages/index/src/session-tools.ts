/** Calls per tool of one session, from the stored rows (no transcript is read). */
import type { Store } from './scope.js';

/**
 * Unique tool_use ids per canonical tool name in the session's files: what a loaded session's calls count, so a
 * header can show it before the session is parsed (a continued session's copied calls included).
 */
export function sessionToolCounts(store: Store, sessionId: string): Record<string, number> {
  const rows = store.db
    .prepare(
      `SELECT canonical_tool(c.name) AS tool, COUNT(DISTINCT c.tool_use_id) AS n
       FROM calls c JOIN files f ON f.id = c.file_id WHERE f.session_id = ? GROUP BY tool ORDER BY tool`,
    )
    .all(sessionId) as { tool: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.tool, r.n]));
}
