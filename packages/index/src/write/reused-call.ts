import { type ParseIssue, reusedCallId } from '@agentdash/core';
import type Database from 'better-sqlite3';
import type { FileRow } from '../file-row.js';
import { MESSAGE_AT } from '../read/header-rows.js';
import { prepared } from '../schema/prepared.js';

const KEPT_CALL = `SELECT c.name, c.line, r.message_id AS messageId FROM calls c
  LEFT JOIN records r ON r.file_id = c.file_id AND r.line = c.line WHERE c.tool_use_id = ? AND c.file_id = ?`;

/**
 * The issue of a call whose id another call of its file has (stored already: the calls table keeps one per id and
 * file), unless it is that call's copy: core's `reusedCallId`, as a loaded session reports it.
 */
export function reusedCallIssue(
  db: Database.Database,
  file: FileRow,
  id: string,
  name: string,
  line: number,
): ParseIssue | undefined {
  const kept = prepared(db, KEPT_CALL).get(id, file.id) as { name: string; line: number; messageId: string | null };
  const here = prepared(db, MESSAGE_AT, 'pluck').get(file.id, line) as string | null | undefined;
  return reusedCallId(
    { name: kept.name, messageId: kept.messageId ?? undefined, loc: { file: file.path, line: kept.line } },
    id,
    name,
    { messageId: here ?? undefined, loc: { file: file.path, line } },
  );
}
