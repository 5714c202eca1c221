/**
 * A session's subagent files that are the client's cache warm-ups (core's `isWarmup`), for `sessions.subagents`: a
 * load does not count them as subagents, so the stored summary does not either. Read from the stored rows: only files
 * without a call can be one, and a file is started when a call of the session names its agent (`calls.agent_ref`,
 * how Claude Code 2.0.28+ links its subagent files; a file without an agent id counts as started by any call that
 * gave a subagent a prompt).
 */
import { isWarmup, ThreadTally } from '@agentdash/core';
import type Database from 'better-sqlite3';
import { threadFactOfRow } from '../read/header-rows.js';
import { preparedOnUse } from '../schema/prepared.js';

interface WarmupRow {
  readonly kind: string;
  readonly key: string;
  readonly message_id: string | null;
  readonly shown: number;
  readonly prompt_text: string | null;
}

/**
 * More records than a warm-up writes (a prompt and one response, its content blocks a record each): a file past it is
 * no warm-up, and is not read whole (a long subagent file no call started, recounted on every append to its session).
 */
const MOST_RECORDS = 16;

export class WarmupFiles {
  private readonly s;
  constructor(db: Database.Database) {
    this.s = preparedOnUse({
      unstarted: () =>
        db
          .prepare(
            `SELECT f.id, f.agent_id FROM files f WHERE f.session_id = @sid AND f.role = 'subagent'
           AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.file_id = f.id)
           AND NOT EXISTS (SELECT 1 FROM calls c JOIN files cf ON cf.id = c.file_id WHERE cf.session_id = @sid
             AND (c.agent_ref = f.agent_id OR (f.agent_id IS NULL AND c.subagent_prompt IS NOT NULL)))`,
          )
          .raw(),
      records: () =>
        db.prepare(
          `SELECT kind_raw AS kind, hex(uuid_raw) AS key, message_id, shown, prompt_text FROM records
         WHERE file_id = ? AND copy_of IS NULL ORDER BY line LIMIT ${MOST_RECORDS + 1}`,
        ),
    });
  }

  /** The agent ids of the session's warm-up files (their responses are the session's own, not a subagent's). */
  agentIds(sid: string): ReadonlySet<string> {
    return this.agentIdsIn(this.of(sid));
  }

  /** The agent ids among warm-up files `of` gave. */
  agentIdsIn(files: readonly (string | null)[]): ReadonlySet<string> {
    return new Set(files.flatMap((agentId) => (agentId === null ? [] : [agentId])));
  }

  /** The session's warm-up files, by their agent ids (null: a file without one). */
  of(sid: string): (string | null)[] {
    const out: (string | null)[] = [];
    for (const [id, agentId] of this.s.unstarted.all({ sid }) as [number, string | null][]) {
      const rows = this.s.records.all(id) as WarmupRow[];
      if (rows.length > MOST_RECORDS) continue;
      const tally = new ThreadTally<undefined>();
      for (const row of rows) tally.add(threadFactOfRow(row), undefined);
      if (isWarmup({ started: false, tally, toolCalls: 0 })) out.push(agentId);
    }
    return out;
  }
}
