/**
 * The facts of tool calls (their classified `calls` columns, call-fact.ts) kept right as files are imported, read again
 * or dropped: one fact per id in each agent home where it occurs, on the row of its first occurrence there
 * (schema-derived.ts), recomputed for the ids a batch touched when it commits (`recomputeCalls`).
 */
import type Database from 'better-sqlite3';
import { agentOfRow } from '../agents.js';
import type { ReadRecords, RowPlace } from '../file-row.js';
import { preparedOnUse } from '../schema/prepared.js';
import { FACT_COLUMNS } from '../schema/schema-derived.js';
import {
  callIn,
  type FactColumns,
  factColumnsOf,
  factValuesOf,
  resultIn,
  type StoredCall,
  type StoredResult,
} from './call-fact.js';
import type { FactOp } from './row-ops.js';
import type { FactValues } from './row-types.js';

/** A stored call's or result's row, where it is. */
interface RowAt {
  readonly file_id: number;
  readonly line: number;
}

/** The first call and first result of an id in one agent home, and where its fact is stored. */
interface FactPlan {
  readonly id: string;
  readonly call: {
    readonly file_id: number;
    readonly line: number;
    readonly offset: number;
    readonly name: string;
    /** `has_result` of the fact this row holds already (NULL: none). */
    readonly stored: number | null;
  };
  readonly result: { readonly file_id: number; readonly line: number; readonly offset: number } | undefined;
  /** Computed by a parse worker, when its call and result are these; else read back. */
  readonly ahead: FactValues | undefined;
  /**
   * The fact the call's row holds already is still right: nothing of the id left in this transaction, and the first
   * result is still the one it was computed with (new rows come after every earlier row, so the first can only have
   * changed from none to one, or to a result in the call's own file: see `planFact`). A resumed or forked session's
   * copies of earlier calls leave their facts as they are.
   */
  readonly settled: boolean;
  /** The agent home the call is first in (`firstCall`). */
  readonly home: string;
}

/** The calls' facts of the open write transaction: statements, and what is known of them until it ends. */
export class CallFacts {
  private readonly s;
  /** The results stored in the open transaction, by tool_use id and file id (`noteResult`). */
  private readonly newResults = new Set<string>();
  /** The calls a PreToolUse hook record stored in the open transaction names (`noteHook`). */
  private readonly newHooks = new Set<string>();
  /** Ids some of whose calls or results leave in the open transaction (`idsLeaving`). */
  private readonly leaving = new Set<string>();
  /** Facts held by calls that leave in the open transaction, by tool_use id and agent home (`idsLeaving`). */
  private readonly leavingFacts = new Map<string, FactColumns>();
  /** Facts computed by parse workers, by tool_use id and file id, until the batch is committed. */
  private readonly factsAhead = new Map<
    string,
    { readonly callLine: number; readonly resultLine: number | null; readonly values: FactValues }
  >();

  constructor(db: Database.Database) {
    this.s = preparedOnUse({
      // In each agent home the first occurrence owns the call (schema-derived.ts). A fork or resume copy has the same
      // timestamp: then the file that started first (its first timestamped line) is the original. Among files that
      // start alike, the session first by key; copies of one session in several folders (the same id, the same
      // start): the newest complete one, its last timestamped line latest, then the first by key. So `ownsBefore`
      // gives their shared responses (usage-queries.ts), whatever the import order (a copy made while `serve`
      // follows the home is read after its original, in a fresh index before it: newest first).
      firstCall: () =>
        db.prepare(
          `SELECT file_id, line, offset, name, stored FROM (
           SELECT c.file_id, c.line, c.offset, c.name, c.has_result AS stored, c.rowid AS rid, c.ts_ms, f.role,
             (SELECT r.ts_ms FROM records r WHERE r.file_id = f.id AND r.ts_ms IS NOT NULL ORDER BY r.line LIMIT 1)
               AS began,
             (SELECT r.ts_ms FROM records r WHERE r.file_id = f.id AND r.ts_ms IS NOT NULL ORDER BY r.line DESC LIMIT 1)
               AS ended,
             f.session_id AS skey, replace(f.session_id, rtrim(f.session_id, replace(f.session_id, '/', '')), '') AS sid
           FROM calls c JOIN files f ON f.id = c.file_id
           WHERE c.tool_use_id = ? AND f.home = ?)
         ORDER BY (ts_ms IS NULL), ts_ms, (role <> 'main'), (began IS NULL), began,
           min(skey) OVER (PARTITION BY sid), (ended IS NULL), ended DESC, skey, rid
         LIMIT 1`,
        ),
      // The result in the owning call's file when it has one (a copy's result goes with its call), else the first.
      firstResult: () =>
        db.prepare(
          `SELECT r.file_id, r.line, r.offset FROM results r JOIN files f ON f.id = r.file_id WHERE r.tool_use_id = ? AND f.home = ?
         ORDER BY (r.file_id <> ?), r.rowid LIMIT 1`,
        ),
      // Whether a file of the home other than the call's holds a result of the id.
      resultElsewhere: () =>
        db.prepare(
          `SELECT 1 FROM results r JOIN files f ON f.id = r.file_id WHERE r.tool_use_id = ? AND f.home = ? AND r.file_id <> ?
         LIMIT 1`,
        ),
      cwdAt: () =>
        db.prepare('SELECT s.text FROM records JOIN strings s ON s.id = cwd_ref WHERE file_id = ? AND line = ?'),
      agentOfFile: () => db.prepare('SELECT agent FROM files WHERE id = ?').pluck(),
      // Whether a PreToolUse hook ran on the call, by a record of its home (pre_hooks).
      hookedIn: () =>
        db.prepare(
          'SELECT 1 FROM pre_hooks h JOIN files f ON f.id = h.file_id WHERE h.tool_use_id = ? AND f.home = ? LIMIT 1',
        ),
      // The facts stored for an id (one per home; a file dropped meanwhile has none).
      factsOfId: () =>
        db.prepare(
          `SELECT c.file_id, f.session_id FROM calls c LEFT JOIN files f ON f.id = c.file_id
         WHERE c.tool_use_id = ? AND c.has_result IS NOT NULL`,
        ),
      deleteFact: () =>
        db.prepare(
          `UPDATE calls SET ${FACT_COLUMNS.map((c) => `${c} = NULL`).join(', ')} WHERE tool_use_id = ? AND file_id = ?`,
        ),
      // A call's fact is stored on the row of its first occurrence in its agent home (schema-derived.ts).
      // The fact's values in FACT_COLUMNS order, then the call's id and file.
      upsertFact: () =>
        db.prepare(
          `UPDATE calls SET ${FACT_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE tool_use_id = ? AND file_id = ?`,
        ),
      // An id's calls and results, up to three (`storeAhead` needs to know there are at most one of each).
      placesOfId: () =>
        db.prepare(
          `SELECT 0 AS is_result, file_id, line FROM calls WHERE tool_use_id = ?
           UNION ALL SELECT 1, file_id, line FROM results WHERE tool_use_id = ? LIMIT 3`,
        ),
      occurrencesOfCall: () =>
        db.prepare(
          'SELECT DISTINCT f.session_id, f.home FROM calls c JOIN files f ON f.id = c.file_id WHERE c.tool_use_id = ?',
        ),
      factsOfFile: () =>
        db.prepare(
          `SELECT c.tool_use_id, f.home, ${FACT_COLUMNS.map((c) => `c.${c}`).join(', ')}
         FROM calls c JOIN files f ON f.id = c.file_id WHERE c.file_id = ? AND c.has_result IS NOT NULL`,
        ),
      idsOfFile: () =>
        db
          .prepare(
            `SELECT tool_use_id FROM calls WHERE file_id = ? UNION SELECT tool_use_id FROM results WHERE file_id = ?
             UNION SELECT tool_use_id FROM pre_hooks WHERE file_id = ?`,
          )
          .pluck(),
    });
  }

  /**
   * Ids of the calls and results stored for a file that is about to be removed or read again: their facts are
   * recomputed when the transaction commits, even where the first call still holds one (`recomputeCalls`).
   */
  idsLeaving(fileId: number): string[] {
    const ids = this.s.idsOfFile.all(fileId, fileId, fileId) as string[];
    for (const id of ids) this.leaving.add(id);
    // The facts this file's calls hold, for a copy of them elsewhere whose records cannot be read back then.
    for (const row of this.s.factsOfFile.all(fileId) as (FactColumns & { tool_use_id: string; home: string })[]) {
      const { tool_use_id, home, ...columns } = row;
      const key = `${tool_use_id}\u0000${home}`;
      if (!this.leavingFacts.has(key)) this.leavingFacts.set(key, columns);
    }
    return ids;
  }

  /** A result stored in the open transaction (its id and file): `planFact` asks whether a call's own one is new. */
  noteResult(id: string, fileId: number): void {
    this.newResults.add(`${id}\u0000${fileId}`);
  }

  /**
   * A PreToolUse hook's record stored in the open transaction: the fact of the call it names is computed again, even
   * when its call and result were stored before (a hook's record in another file than its call's).
   */
  noteHook(id: string): void {
    this.newHooks.add(id);
  }

  /** A fact a parse worker computed for a call of this file (`OP.fact`): taken when the batch commits. */
  noteAhead(fileId: number, op: FactOp): void {
    this.factsAhead.set(`${op[1]}\u0000${fileId}`, { callLine: op[2], resultLine: op[3], values: op[4] });
  }

  /** The transaction ended (committed or rolled back): forget what only held within it. */
  endTransaction(): void {
    this.factsAhead.clear();
    this.newResults.clear();
    this.newHooks.clear();
    this.leaving.clear();
    this.leavingFacts.clear();
  }

  /**
   * Recompute the joined, classified fact rows of these tool_use ids from their stored call and result occurrences:
   * one row per id in each agent home where it occurs, at the home's first occurrence. A fact a parse worker computed
   * for that call and result is taken as it is; else the call's and result's records are read back (`read`).
   * Adds the sessions whose figures may have changed.
   */
  async recomputeCalls(ids: Iterable<string>, sessions: Set<string>, read: ReadRecords): Promise<void> {
    const plans: FactPlan[] = [];
    const dropped: { id: string; fileId: number }[] = [];
    for (const id of ids) {
      if (this.storeAhead(id)) continue;
      const stored = this.s.factsOfId.all(id) as { file_id: number; session_id: string | null }[];
      const homes = new Set<string>();
      for (const fact of stored) if (fact.session_id !== null) sessions.add(fact.session_id);
      for (const at of this.s.occurrencesOfCall.all(id) as { session_id: string; home: string }[]) {
        sessions.add(at.session_id);
        homes.add(at.home);
      }
      const kept = new Set<number>();
      for (const home of homes) {
        const plan = this.planFact(id, home);
        if (plan === undefined) continue;
        plans.push(plan);
        kept.add(plan.call.file_id);
      }
      for (const fact of stored) if (!kept.has(fact.file_id)) dropped.push({ id, fileId: fact.file_id });
    }
    // The records of the calls and results no worker computed a fact for, read back at once (nearly always none, or
    // a few: a call and its result in two files, a file appended to).
    const unread = plans.filter((p) => p.ahead === undefined && !p.settled);
    const places: RowPlace[] = [];
    for (const p of unread) {
      places.push({ fileId: p.call.file_id, line: p.call.line, offset: p.call.offset });
      if (p.result !== undefined)
        places.push({ fileId: p.result.file_id, line: p.result.line, offset: p.result.offset });
    }
    const records = places.length === 0 ? [] : await read(places);
    const upsert = (p: FactPlan, values: FactValues) => this.s.upsertFact.run(...values, p.id, p.call.file_id);
    for (const p of plans) if (p.ahead !== undefined) upsert(p, p.ahead);
    let next = 0;
    for (const p of unread) {
      const call = callIn(records[next++] ?? [], p.id);
      const result = p.result === undefined ? undefined : resultIn(records[next++] ?? [], p.id);
      // A record that cannot be read back now (its file changed in place, or is unreadable) never replaces a fact
      // with a poorer one. A call without a fact yet takes the one a leaving copy of it held (a resumed session's
      // file that went) when that was paired as this call is now; else what can be read: its name and place, no
      // input, no result.
      if (call !== undefined && (p.result === undefined || result !== undefined))
        upsert(p, factValuesOf(this.factOf(p, call, result)));
      else if (p.call.stored === null) {
        const copy = this.leavingFacts.get(`${p.id}\u0000${p.home}`);
        const pairedAlike = copy !== undefined && copy.has_result === (p.result === undefined ? 0 : 1);
        upsert(p, factValuesOf(pairedAlike ? copy : this.factOf(p, this.bareCall(p), undefined)));
      }
    }
    for (const { id, fileId } of dropped) this.s.deleteFact.run(id, fileId);
  }

  /**
   * What `recomputeCalls` does for an id in the common case of an import, in one statement instead of `planFact`'s
   * four: the id has one call and at most one result, both in the file whose parse worker computed their fact. Then
   * that call is the first in its home and holds no other fact to drop, and its session is the file's, which the
   * batch recomputes already (a fact computed ahead is of a file stored in this transaction). Returns false (nothing
   * done) otherwise.
   */
  private storeAhead(id: string): boolean {
    if (this.leaving.has(id)) return false;
    const rows = this.s.placesOfId.all(id, id) as (RowAt & { is_result: 0 | 1 })[];
    const call = rows.find((r) => r.is_result === 0);
    const result = rows.find((r) => r.is_result === 1);
    if (call === undefined || rows.length > (result === undefined ? 1 : 2)) return false;
    const ahead = this.aheadFor(id, call, result);
    if (ahead === undefined) return false;
    this.s.upsertFact.run(...ahead, id, call.file_id);
    return true;
  }

  /**
   * The fact the parse worker that read a call's file computed for it, when it was computed with this result: none,
   * or the row of a result in the call's file.
   */
  private aheadFor(id: string, call: RowAt, result: RowAt | undefined): FactValues | undefined {
    const ahead = this.factsAhead.get(`${id}\u0000${call.file_id}`);
    if (ahead === undefined || ahead.callLine !== call.line) return undefined;
    const matches =
      result === undefined
        ? ahead.resultLine === null
        : result.file_id === call.file_id && result.line === ahead.resultLine;
    return matches ? ahead.values : undefined;
  }

  /** The first call and result of an id in one agent home, and the fact a worker computed for them if any. */
  private planFact(id: string, home: string): FactPlan | undefined {
    const call = this.s.firstCall.get(id, home) as FactPlan['call'] | undefined;
    if (call === undefined) return undefined;
    const result = this.s.firstResult.get(id, home, call.file_id) as FactPlan['result'];
    const settled =
      !this.leaving.has(id) &&
      !this.newHooks.has(id) &&
      call.stored !== null &&
      call.stored === (result === undefined ? 0 : 1) &&
      // A result in the call's own file comes first, but it may be new: the fact was then computed with another
      // file's (a resumed copy that held the result first). Computed again when it is new and another file holds one.
      !(
        result?.file_id === call.file_id &&
        this.newResults.has(`${id}\u0000${result.file_id}`) &&
        this.s.resultElsewhere.get(id, home, call.file_id) !== undefined
      );
    return { id, call, result, ahead: this.aheadFor(id, call, result), settled, home };
  }

  /** A call known only by its row: its name and place. */
  private bareCall(plan: FactPlan): StoredCall {
    return { id: plan.id, name: plan.call.name, input: undefined, ts: null, line: plan.call.line, messageId: null };
  }

  /** The fact of a call and its result as read back. */
  private factOf(plan: FactPlan, call: StoredCall, result: StoredResult | undefined): FactColumns {
    return factColumnsOf(
      call,
      result,
      (this.s.cwdAt.get(plan.call.file_id, plan.call.line) as { text: string } | undefined)?.text,
      agentOfRow(this.s.agentOfFile.get(plan.call.file_id) as string | undefined),
      this.s.hookedIn.get(plan.id, plan.home) !== undefined,
    );
  }
}
