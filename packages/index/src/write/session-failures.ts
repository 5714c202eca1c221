/**
 * A session's failed requests and retried attempts (`sessions.api_errors`, `api_retries`) less those a session that
 * owns before it holds too: the API error a resume or fork copied with the conversation is the earlier session's,
 * counted there, as its calls and responses are (session-usage.ts `settle`, which finds those sessions).
 * @module
 */
import type Database from 'better-sqlite3';
import { preparedOnUse } from '../schema/prepared.js';

export class FailureOwners {
  private readonly s;
  constructor(db: Database.Database) {
    this.s = preparedOnUse({
      // Its records of failed requests (records.is_synthetic 1) and retried attempts (3), keyed as the scan keys them
      // (message id, else uuid), less those the given sessions (a JSON array of their ids) hold by that key.
      counts: () =>
        db.prepare(
          `SELECT coalesce(sum(mine.kind = 1), 0) AS failed, coalesce(sum(mine.kind = 3), 0) AS retried FROM (
           SELECT DISTINCT r.is_synthetic AS kind, coalesce(r.message_id, r.uuid, f.id || ':' || r.line) AS key
           FROM records r JOIN files f ON f.id = r.file_id
           WHERE f.session_id = @sid AND r.is_synthetic IN (1, 3)) mine
         WHERE NOT EXISTS (SELECT 1 FROM files of JOIN records o ON o.file_id = of.id
           WHERE of.session_id IN (SELECT value FROM json_each(@earlier)) AND o.is_synthetic = mine.kind
             AND coalesce(o.message_id, o.uuid) = mine.key)`,
        ),
      stored: () => db.prepare('SELECT api_errors AS failed, api_retries AS retried FROM sessions WHERE id = ?'),
      write: () => db.prepare('UPDATE sessions SET api_errors = @failed, api_retries = @retried WHERE id = @sid'),
    });
  }

  /** Count session `sid`'s own, `earlier`: the ids of the sessions sharing its conversation that own before it. */
  settle(sid: string, earlier: readonly string[]): void {
    const counts = this.s.counts.get({ sid, earlier: JSON.stringify(earlier) }) as Counts;
    const stored = this.s.stored.get(sid) as Counts | undefined;
    if (stored?.failed === counts.failed && stored.retried === counts.retried) return;
    this.s.write.run({ sid, ...counts });
  }
}

interface Counts {
  readonly failed: number;
  readonly retried: number;
}
