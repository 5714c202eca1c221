/**
 * A session's time partition (core's `partitionTime`) as `sessions.time` stores it: its main thread's records (from the
 * session's scan), the requests and calls stored for it. A fork or resume counts only what follows the conversation
 * it copied (`afterMs`, `sessions.own_from_ms`): its copies keep their first timestamps, so they spanned the earlier
 * session's time again.
 */
import {
  partitionTime,
  type ThreadCall,
  type ThreadRecord,
  threadActivity,
  timestampMs,
  waitsForPerson,
} from '@agentdash/core';
import type Database from 'better-sqlite3';
import { adapterForFile, agentOfRow } from '../agents.js';
import { preparedOnUse } from '../schema/prepared.js';
import type { UsageScan } from './session-scan.js';

export class SessionTimes {
  private readonly s;
  constructor(db: Database.Database) {
    this.s = preparedOnUse({
      // The main thread's requests (its records come from the session's scan), for the time partition; every
      // file's (@all) without a main file, as the scan's thread then is.
      threadRequests: () =>
        db.prepare(
          `SELECT q.ts_ms, q.id, q.line FROM requests q JOIN files f ON f.id = q.file_id
         WHERE f.session_id = @sid AND (@all = 1 OR f.role = 'main' AND q.agent_id IS NULL)`,
        ),
      // The session's own occurrences (a resumed session's copies of earlier calls included), each with its result
      // in the same file, else the earliest in the session, and its duration (from the row holding its fact).
      threadCalls: () =>
        db.prepare(
          `SELECT c.ts_ms, c.name, f.agent,
                coalesce(MIN(CASE WHEN res.file_id = c.file_id THEN res.ts END), MIN(res.ts)) AS result_ts,
                coalesce(c.duration_ms, (SELECT x.duration_ms FROM calls x
                  WHERE x.tool_use_id = c.tool_use_id AND x.has_result IS NOT NULL LIMIT 1)) AS duration_ms
         FROM calls c JOIN files f ON f.id = c.file_id
         LEFT JOIN results res ON res.tool_use_id = c.tool_use_id
           AND res.file_id IN (SELECT sf.id FROM files sf WHERE sf.session_id = @sid)
         WHERE f.session_id = @sid AND (@all = 1 OR f.role = 'main' AND c.agent_id IS NULL) AND c.ts_ms IS NOT NULL
         GROUP BY c.file_id, c.tool_use_id`,
        ),
    });
  }

  /**
   * The time of a session's main thread (every file's without a main file, as its scan's thread then is), as
   * `sessions.time` stores it; only its records after `afterMs` when given (a fork's or resume's own).
   */
  timeOf(sid: string, scan: Pick<UsageScan, 'thread' | 'mainFile'>, afterMs?: number): string {
    const all = scan.mainFile ? 0 : 1;
    let records = this.records(sid, scan.thread, all);
    let calls = this.calls(sid, all);
    if (afterMs !== undefined) {
      records = records.filter((r) => r.atMs > afterMs);
      calls = calls.filter((c) => c.startMs > afterMs);
    }
    return JSON.stringify(partitionTime(threadActivity(records, calls)));
  }

  /** The main thread's records and requests (`all`: every file's), by time, then line. */
  private records(sid: string, records: UsageScan['thread'], all: 0 | 1): ThreadRecord[] {
    const timed: { line: number; record: ThreadRecord }[] = records.map((r) => {
      const requestKey = r.request_key ?? undefined;
      // A message the client wrote itself (an API error, "No response requested.") is no model response.
      if (r.kind === 'assistant' && r.is_synthetic === 0) {
        return {
          line: r.line,
          record: { atMs: r.ts_ms, kind: 'response', responseKey: r.response_key ?? undefined, requestKey },
        };
      }
      return { line: r.line, record: { atMs: r.ts_ms, kind: r.shown === 1 ? 'prompt' : 'other' } };
    });
    for (const q of this.s.threadRequests.all({ sid, all }) as { ts_ms: number; id: string; line: number }[]) {
      timed.push({ line: q.line, record: { atMs: q.ts_ms, kind: 'request', requestKey: q.id } });
    }
    timed.sort((a, b) => a.record.atMs - b.record.atMs || a.line - b.line);
    return timed.map((t) => t.record);
  }

  private calls(sid: string, all: 0 | 1): ThreadCall[] {
    const rows = this.s.threadCalls.all({ sid, all }) as {
      ts_ms: number;
      name: string;
      agent: string | null;
      result_ts: string | null;
      duration_ms: number | null;
    }[];
    return rows.map((r) => {
      // read as every time of a transcript is (core's `timestampMs`)
      const end = r.result_ts === null ? undefined : timestampMs(r.result_ts);
      // By the kind the file's agent types the tool onto (a question, a plan to approve), not by one agent's names.
      const adapter = adapterForFile({ agent: agentOfRow(r.agent) });
      const kind = adapter.kindOfTool?.(adapter.canonicalToolName(r.name));
      return {
        startMs: r.ts_ms,
        endMs: end,
        waitsForPerson: waitsForPerson(kind),
        ranMs: r.duration_ms ?? undefined,
        startsSubagent: kind === 'agent',
      };
    });
  }
}
