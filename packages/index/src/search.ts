/** Full-text search over the stored text (FTS5, bm25 ranking, highlighted snippets). */
import { idOfKey } from './import.js';
import { limitSql, pathCond, type Store, scopeSql, toMs, Where } from './scope.js';
import { refsOf } from './session-queries.js';
import type { SearchFilter, SearchHit, SearchKind } from './types.js';

/** A user query → an FTS5 query: every word or "quoted phrase" must occur. */
export function toFtsQuery(query: string): string {
  const parts: string[] = [];
  // Control characters (NUL above all) are never searchable text, and FTS5 rejects a NUL inside a string.
  const cleaned = Array.from(query, (ch) => (ch <= '\u001f' || ch === '\u007f' ? ' ' : ch)).join('');
  for (const match of cleaned.matchAll(/"([^"]*)"|(\S+)/g)) {
    const text = (match[1] ?? match[2] ?? '').trim();
    if (text === '') continue;
    const prefix = match[2] !== undefined && text.endsWith('*') && text.length > 1;
    const body = prefix ? text.slice(0, -1) : text;
    parts.push(`"${body.replace(/"/g, '""')}"${prefix ? '*' : ''}`);
  }
  return parts.join(' ');
}

interface HitRow {
  line: number;
  ts: string | null;
  kind: SearchKind;
  tool: string | null;
  call_id: string | null;
  agent_id: string | null;
  file: string;
  session_id: string;
  project_path: string | null;
  title: string | null;
  snippet: string;
  rank: number;
}

/** Documents matching every word of the query, best first (at most `limit`, default 50). */
export function search(store: Store, query: string, filter: SearchFilter = {}): SearchHit[] {
  const match = toFtsQuery(query);
  if (match === '') return [];
  const scoped = scopeSql({
    ...(filter.paths ? { paths: filter.paths } : {}),
    ...(filter.project ? { project: filter.project } : {}),
    ...(filter.agent ? { agent: filter.agent } : {}),
  });
  const inPaths = pathCond(filter.paths ?? [], 'f');
  const where = new Where()
    .add('docs_fts MATCH ?', match)
    .add(`f.session_id IN (SELECT s.id FROM sessions s WHERE ${scoped.sql})`, ...scoped.params)
    .add(inPaths.sql, ...inPaths.params)
    .when(filter.tool, '(d.tool = ? OR canonical_tool(d.tool) = ?)')
    .when(filter.sessionId, 'f.session_id = ?')
    .when(filter.kind, 'd.kind = ?')
    .when(toMs(filter.since), 'd.ts_ms >= ?');
  const limit = filter.limit !== undefined && filter.limit > 0 ? filter.limit : 50;
  const rows = store.db
    .prepare(
      `SELECT d.line, d.ts, d.kind, d.tool, d.call_id, d.agent_id, f.path AS file, f.session_id,
         s.project_path, s.title, snippet(docs_fts, 0, char(1), char(2), '…', 16) AS snippet, bm25(docs_fts) AS rank
       FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid JOIN files f ON f.id = d.file_id
         LEFT JOIN sessions s ON s.id = f.session_id
       WHERE ${where.sql} ORDER BY rank${limitSql(limit)}`,
    )
    .all(...where.params) as HitRow[];
  const refOf = refsOf(store);
  return rows.map((r) => ({
    sessionId: idOfKey(r.session_id),
    sessionRef: refOf(r.session_id),
    projectPath: r.project_path ?? undefined,
    sessionTitle: r.title ?? undefined,
    timestamp: r.ts ?? undefined,
    kind: r.kind,
    tool: r.tool ?? undefined,
    callId: r.call_id ?? undefined,
    agentId: r.agent_id ?? undefined,
    snippet: r.snippet,
    file: r.file,
    line: r.line,
    rank: r.rank,
  }));
}
