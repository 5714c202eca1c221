/** Full-text search over the stored text (FTS5, bm25 ranking, highlighted snippets). */

import { outputTime } from '@agentdash/core/base';
import { idOfKey } from '../file-row.js';
import { archiveOf, prepared } from '../schema/statements.js';
import type { SearchFilter, SearchHit, SearchKind } from '../types.js';
import { spaceCjk } from '../write/cjk.js';
import { cutSnippet, DocTexts } from './doc-snippet.js';
import { DOC_FILE_COLUMNS, type DocFileRow, fileOfRow } from './file-of-row.js';
import { limitSql, pathCond, type Store, scopeSql, toMs, Where } from './scope.js';
import { refsOf } from './session-queries.js';

/**
 * A user query → an FTS5 query: every word or "quoted phrase" must occur. A word ending in `*` is a prefix; a CJK
 * word is a phrase of its characters (`数据库` → `"数 据 库"`), so it is found inside a longer run of them. Each
 * phrase once.
 */
export function toFtsQuery(query: string): string {
  const parts: string[] = [];
  // Control characters (NUL above all) are never searchable text, and FTS5 rejects a NUL inside a string.
  const cleaned = Array.from(query, (ch) => (ch <= '\u001f' || ch === '\u007f' ? ' ' : ch)).join('');
  for (const match of cleaned.matchAll(/"([^"]*)"|(\S+)/g)) {
    const text = (match[1] ?? match[2] ?? '').trim();
    if (text === '') continue;
    const prefix = match[2] !== undefined && text.endsWith('*') && text.length > 1;
    // A CJK word is a phrase of its characters, each a token of the index (cjk.ts).
    const body = spaceCjk(prefix ? text.slice(0, -1) : text)
      .replace(/ {2,}/g, ' ')
      .trim();
    parts.push(`"${body.replace(/"/g, '""')}"${prefix ? '*' : ''}`);
  }
  // Each phrase once: every one must occur anyway, and FTS5 ranks a query's phrases one by one (a pasted run of a
  // repeated word took minutes).
  return [...new Set(parts)].join(' ');
}

interface HitRow extends DocFileRow {
  line: number;
  offset: number;
  part: number;
  ts: string | null;
  ts_ms: number | null;
  kind: SearchKind;
  tool: string | null;
  call_id: string | null;
  agent_id: string | null;
  project_path: string | null;
  title: string | null;
  rank: number;
}

/** Hits a search gives when it is not told how many. */
export const DEFAULT_SEARCH_LIMIT = 50;

/** Documents matching every word of the query, best first (at most `limit`, default `DEFAULT_SEARCH_LIMIT`). */
export async function search(store: Store, query: string, filter: SearchFilter = {}): Promise<SearchHit[]> {
  const match = toFtsQuery(query);
  if (match === '') return [];
  const scoped = scopeSql({
    ...(filter.paths ? { paths: filter.paths } : {}),
    ...(filter.project ? { project: filter.project } : {}),
    ...(filter.agent ? { agent: filter.agent } : {}),
  });
  // The sessions with a file under the paths, whole (as the sessions list takes them): a session's main file named
  // alone searches its subagents' files too.
  const named = pathCond(filter.paths ?? [], 'pf');
  const inPaths =
    (filter.paths ?? []).length === 0
      ? named
      : { sql: `f.session_id IN (SELECT pf.session_id FROM files pf WHERE ${named.sql})`, params: named.params };
  const where = new Where()
    .add('docs_fts MATCH ?', match)
    .add(`f.session_id IN (SELECT s.id FROM sessions s WHERE ${scoped.sql})`, ...scoped.params)
    .add(inPaths.sql, ...inPaths.params)
    // core's `isOfTool`, as the call filters' (scope.ts)
    .when(
      filter.tool,
      '(d.tool = ? OR canonical_tool(f.agent, d.tool) = ? OR canonical_tool(f.agent, d.tool) = canonical_tool(f.agent, ?))',
    )
    .when(filter.sessionId, 'f.session_id = ?')
    .when(filter.kind, 'd.kind = ?')
    // a text without a time of its own (a legacy Codex rollout dates only its header) is its session's start's
    .when(toMs(filter.since), 'coalesce(d.ts_ms, s.started_ms) >= ?');
  const limit = filter.limit !== undefined && filter.limit > 0 ? filter.limit : DEFAULT_SEARCH_LIMIT;
  const hitsSql = `SELECT d.line, d.offset, d.part, d.ts, d.ts_ms, d.kind, d.tool, d.call_id, d.agent_id, ${DOC_FILE_COLUMNS},
      s.project_path, s.title, bm25(docs_fts) AS rank
    FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid JOIN files f ON f.id = d.file_id
      LEFT JOIN sessions s ON s.id = f.session_id
    WHERE ${where.sql}`;
  // One hit per session: its best, chosen in SQL, so only those are read back for snippets. Hits ranked alike (the
  // same words in texts of one length) go by file path and place, never by file id: ids follow the order files were
  // indexed in, and two indexes of one home (one upgraded, one fresh) gave the same hits in other orders (24 of 50).
  const sql = filter.onePerSession
    ? `SELECT * FROM (SELECT h.*, row_number() OVER (PARTITION BY h.session_id
          ORDER BY h.rank, h.file, h.line, h."offset", h.part) AS nth FROM (${hitsSql}) h)
        WHERE nth = 1 ORDER BY rank, file, line, "offset", part${limitSql(limit)}`
    : `${hitsSql} ORDER BY rank, file, d.line, d."offset", d.part${limitSql(limit)}`;
  const rows = prepared(store.db, sql).all(...where.params) as HitRow[];
  const refOf = refsOf(store);
  // The text is read back from the transcript for the snippet (the index keeps only the words).
  const texts = new DocTexts(archiveOf(store.db));
  const found = await texts.textsOf(
    rows.map((r) => ({ file: fileOfRow(r), line: r.line, offset: r.offset, part: r.part })),
  );
  return rows.map((r, i) => hitOf(r, found[i] ?? ''));

  function hitOf(r: HitRow, text: string): SearchHit {
    return {
      sessionId: idOfKey(r.session_id),
      sessionRef: refOf(r.session_id),
      projectPath: r.project_path ?? undefined,
      sessionTitle: r.title ?? undefined,
      // ISO UTC to the millisecond as every time AgentDash gives, whatever offset the transcript wrote
      timestamp: outputTime(r.ts_ms ?? undefined, r.ts ?? undefined),
      kind: r.kind,
      tool: r.tool ?? undefined,
      callId: r.call_id ?? undefined,
      agentId: r.agent_id ?? undefined,
      snippet: cutSnippet(text, match),
      file: r.file,
      line: r.line,
      rank: r.rank,
    };
  }
}
