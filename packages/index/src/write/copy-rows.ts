/**
 * A subagent's records copied into its parent's file (Claude Code 2.1.x's `agent_progress`, core's
 * `AgentAdapter.embeddedRecordOf`) are that subagent's thread when the session has no file of it: core's one rule,
 * `EmbeddedThreads`, which the parse of every file goes through here. The copies it takes are stored as rows of the
 * file that holds them (record-rows.ts, `OpsFile.copyOf`): each record's row right after its holder's, with its agent
 * (`records.copy_of`), not counted among the file's records; its calls, results and documents as a subagent's.
 * Which agents have a file is known when the file is read (`ParseRequest.filed`); when that changes, the files
 * holding copies are read again (copy-reads.ts, `CopyReads`).
 */
import { type AgentAdapter, type DiscoveredFile, EmbeddedThreads, type RecordEvent } from '@agentdash/core';
import type Database from 'better-sqlite3';
import { adapterForFile } from '../agents.js';
import { sessionKeyOf } from '../file-row.js';
import { prepared } from '../schema/statements.js';
import type { FactTracker } from './call-fact.js';
import { type OpsFile, opsOfEvent } from './record-rows.js';
import type { Op } from './row-ops.js';

/**
 * The copies a file's read takes (undefined: its agent writes none), given the agents with a file in its session;
 * `taken`: those its earlier reads took, when this read goes on after them (`takenCopies`), asked only of an agent
 * that writes copies.
 */
export function copiesOfRead(
  adapter: AgentAdapter,
  filed: readonly string[],
  taken: () => readonly (readonly [string, string])[] = () => [],
): EmbeddedThreads | undefined {
  return adapter.embeddedRecordOf === undefined ? undefined : new EmbeddedThreads(adapter, new Set(filed), taken());
}

/**
 * Whether a stored file holds copies it took as a thread. Through `records_copies` (the copy rows alone, few in any
 * index): by its primary key SQLite would read every record of the file.
 */
export function hasCopies(db: Database.Database, fileId: number): boolean {
  const sql = 'SELECT 1 FROM records INDEXED BY records_copies WHERE file_id = ? AND copy_of IS NOT NULL LIMIT 1';
  return prepared(db, sql).get(fileId) !== undefined;
}

/**
 * The copies a stored file took as a thread (agent id and uuid): a read of its appended bytes takes a copy repeated
 * there once, as a read of the whole file would. Through `records_copies` (few rows, sought by file).
 */
export function takenCopies(db: Database.Database, fileId: number): [string, string][] {
  const rows = prepared(
    db,
    `SELECT copy_of, uuid FROM records INDEXED BY records_copies
     WHERE file_id = ? AND copy_of IS NOT NULL AND uuid IS NOT NULL`,
  ).all(fileId) as { copy_of: string; uuid: string }[];
  return rows.map((row) => [row.copy_of, row.uuid]);
}

/**
 * The row operations of one event of a file (`opsOfEvent`), its calls' facts tracked; then, when its record holds a
 * copy that is its subagent's thread (`copies`), those of the copy.
 */
export function opsWithCopies(
  event: RecordEvent,
  file: OpsFile,
  out: Op[],
  facts: FactTracker,
  copies: EmbeddedThreads | undefined,
): void {
  const from = out.length;
  opsOfEvent(event, file, out);
  facts.track(event, out, from);
  if (copies === undefined || event.kind !== 'record') return;
  const copy = copies.take(event.record);
  if (copy === undefined) return;
  const copied: RecordEvent = { kind: 'record', record: copy.record, byteLength: 0 };
  const at = out.length;
  opsOfEvent(copied, { agentId: copy.agentId, role: 'subagent', copyOf: copy.agentId, docs: file.docs }, out);
  facts.track(copied, out, at);
}

/** Whether two reads know the same agents' files (`ParseRequest.filed`). */
export function sameAgents(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((id) => set.has(id));
}

/**
 * The files of a session holding copies taken as the thread of an agent that has a file in the session now: their
 * rows are not what a read now gives (`CopyReads` reads them again).
 */
export function filesWithStaleCopies(db: Database.Database, sessionKey: string): number[] {
  return prepared(
    db,
    `SELECT DISTINCT r.file_id FROM records r INDEXED BY records_copies
     WHERE r.copy_of IS NOT NULL AND r.copy_of IN (SELECT agent_id FROM files WHERE session_id = @sid AND agent_id IS NOT NULL)
       AND r.file_id IN (SELECT id FROM files WHERE session_id = @sid)`,
    'pluck',
  ).all({ sid: sessionKey }) as number[];
}

/**
 * The agent ids with a file in a file's session when it is read (`ParseRequest.filed`): the files of this refresh
 * (discovered, or read from the archive) and those stored, by session.
 */
export class FiledAgents {
  private readonly planned = new Map<string, Set<string>>();

  constructor(
    private readonly db: Database.Database,
    files: readonly DiscoveredFile[],
  ) {
    for (const file of files) {
      if (file.agentId === undefined) continue;
      const key = sessionKeyOf(file);
      const ids = this.planned.get(key) ?? new Set<string>();
      ids.add(file.agentId);
      this.planned.set(key, ids);
    }
  }

  /** None for an agent that copies no records. */
  of(file: DiscoveredFile): readonly string[] {
    if (adapterForFile(file).embeddedRecordOf === undefined) return [];
    const key = sessionKeyOf(file);
    const stored = prepared(
      this.db,
      'SELECT agent_id FROM files WHERE session_id = ? AND agent_id IS NOT NULL',
      'pluck',
    ).all(key) as string[];
    return [...new Set([...(this.planned.get(key) ?? []), ...stored])];
  }
}

/**
 * The sessions an agent's file came into (`gained`) or left (`lost`) whose files holding copies are to be read again
 * (`CopyReads.run`, copy-reads.ts). Stored (`copy_reads`), in the open batch of the change: a refresh stopped before
 * the reads (interrupted, failed) leaves them to the next, and the index still ends as a fresh one.
 */
export class AgentFiles {
  constructor(private readonly db: Database.Database) {}

  gained(sessionKey: string): void {
    this.note(sessionKey, 0);
  }

  lost(sessionKey: string): void {
    this.note(sessionKey, 1);
  }

  /** The sessions to read again, with whether an agent's file left them. */
  pending(): { readonly sessionKey: string; readonly lost: boolean }[] {
    const rows = prepared(this.db, 'SELECT session_id, lost FROM copy_reads').all() as {
      session_id: string;
      lost: number;
    }[];
    return rows.map((row) => ({ sessionKey: row.session_id, lost: row.lost === 1 }));
  }

  /** A session's files were read again (inside the open batch). */
  done(sessionKey: string): void {
    prepared(this.db, 'DELETE FROM copy_reads WHERE session_id = ?').run(sessionKey);
  }

  private note(sessionKey: string, lost: 0 | 1): void {
    prepared(
      this.db,
      `INSERT INTO copy_reads (session_id, lost) VALUES (?, ?)
       ON CONFLICT (session_id) DO UPDATE SET lost = max(lost, excluded.lost)`,
    ).run(sessionKey, lost);
  }
}
