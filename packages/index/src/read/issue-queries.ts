/** Parse issues stored with the files they were found in. */
import { idOfKey } from '../file-row.js';
import { prepared } from '../schema/statements.js';
import type { StoredIssue } from '../types.js';
import { limitSql, pathCond, type Store, Where } from './scope.js';
import { refsOf } from './session-queries.js';

export interface IssueFilter {
  readonly sessionId?: string;
  readonly paths?: readonly string[];
  readonly limit?: number;
}

export function issues(store: Store, filter: IssueFilter = {}): StoredIssue[] {
  const inPaths = pathCond(filter.paths ?? [], 'f');
  const where = new Where().add(inPaths.sql, ...inPaths.params).when(filter.sessionId, 'f.session_id = ?');
  const rows = prepared(
    store.db,
    `SELECT i.code, i.line, i.message, f.path AS file, f.session_id FROM issues i JOIN files f ON f.id = i.file_id
       WHERE ${where.sql} ORDER BY f.path, i.line${limitSql(filter.limit)}`,
  ).all(...where.params) as { code: string; line: number; message: string; file: string; session_id: string }[];
  const refOf = refsOf(store);
  return rows.map((r) => ({
    code: r.code,
    file: r.file,
    line: r.line,
    message: r.message,
    sessionId: idOfKey(r.session_id),
    sessionRef: refOf(r.session_id),
  }));
}
