import type { DiscoveredFile, RecordEvent, TranscriptRecord } from '@agentdash/core';
import type Database from 'better-sqlite3';
import { agentOfRow } from './agents.js';
import {
  callIn,
  type FactColumns,
  type FactTracker,
  type FactValues,
  factColumnsOf,
  factValuesOf,
  resultIn,
  type StoredCall,
  type StoredResult,
} from './call-fact.js';
import { OP, type Op, opsOfEvent } from './record-rows.js';
import { FACT_COLUMNS } from './schema-derived.js';

export interface FileRow {
  readonly id: number;
  readonly path: string;
  readonly project_dir: string;
  readonly role: 'main' | 'subagent';
  readonly session_id: string;
  readonly agent_id: string | null;
  readonly meta_path: string | null;
  /** The agent that wrote the file (`claude`, `codex`, `gemini`). */
  readonly agent: string;
  readonly size: number;
  readonly mtime_ms: number;
  readonly ino: number;
  readonly parsed_offset: number;
  readonly next_line: number;
  readonly records: number;
  /** A hash of the first bytes and of the bytes just before `parsed_offset` (see `fingerprintOf`). */
  readonly tail: string;
  /** The file's modification time when records were last appended to it after its first read, else null. */
  readonly appended_ms: number | null;
  /** 1 when the file is gone from disk and is read from the archive. */
  readonly archived: number;
}

/**
 * The key a session is stored under: its project folder plus its session id (`<projectDir>/<id>`), so that two
 * files of the same name in different project folders (say, checkpoint copies all named `full.jsonl`) stay two
 * sessions. A file without a known session id is its own orphan session.
 */
export function sessionKeyOf(file: DiscoveredFile): string {
  const id = file.sessionId ?? `orphan-${file.agentId ?? file.path.split(/[\\/]/).pop() ?? file.path}`;
  return sessionKey(file.projectDir, id);
}

export function sessionKey(projectDir: string, sessionId: string): string {
  return `${projectDir}/${sessionId}`;
}

/** The plain session id of a session key (session ids never hold a slash). */
export function idOfKey(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

/** Where a stored call or result is: its file's id, its record's line and byte offset (`calls`, `results`). */
export interface RowPlace {
  readonly fileId: number;
  readonly line: number;
  readonly offset: number;
}

/** The records at stored rows' places, read back from their transcripts (call-payloads.ts). */
export type ReadRecords = (places: readonly RowPlace[]) => Promise<TranscriptRecord[][]>;

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
   * changed from none to one). A resumed or forked session's copies of earlier calls leave their facts as they are.
   */
  readonly settled: boolean;
  /** The agent home the call is first in (`firstCall`). */
  readonly home: string;
}

/**
 * Bytes held by documents waiting for the full-text index before they are inserted anyway: the buffers their texts
 * are views of (a parse worker's chunk of serialized rows, see `ParseJob`), each counted whole once.
 */
const MAX_PENDING_BYTES = 32 * 1024 * 1024;

/** A savepoint taken by `Writer.savepoint`: released, or rolled back (and released). */
export interface Savepoint {
  release(): void;
  rollback(): void;
}

/** Prepared statements for importing and recomputing. */
export class Writer {
  private readonly s;
  /** Documents whose words are not in the full-text index yet (see `indexText`). */
  private pendingTexts: [number | bigint, Uint8Array][] = [];
  /** The buffers the waiting texts keep in memory, and their bytes. */
  private heldBuffers = new Set<ArrayBufferLike>();
  private pendingBytes = 0;
  /** The numbers of texts in `strings` met in the open transaction (`stringId`). */
  private readonly stringIds = new Map<string, number>();
  /** Ids some of whose calls or results leave in the open transaction (`idsLeaving`). */
  private readonly leaving = new Set<string>();
  /** Facts held by calls that leave in the open transaction, by tool_use id and agent home (`idsLeaving`). */
  private readonly leavingFacts = new Map<string, FactColumns>();
  /** Facts computed by parse workers, by tool_use id and file id, until the batch is committed. */
  private readonly factsAhead = new Map<
    string,
    { readonly callLine: number; readonly resultLine: number | null; readonly values: FactValues }
  >();
  constructor(private readonly db: Database.Database) {
    this.s = {
      // One row per line: the first record of a line is kept. An adapter may derive several records from one line
      // (Gemini writes a model turn, its tool calls and their results in one message): the first is the response,
      // with its model and usage; the calls and results that follow are stored by id in their own tables.
      // A record's repeated texts by their number in `strings`, numbered once per transaction (`stringId`).
      insertRecord: db.prepare(
        `INSERT OR IGNORE INTO records (file_id, line, kind_raw, uuid_raw, ts_text, ts_ms, cwd_ref, version_ref,
          git_branch_ref, model_ref, message_id, is_sidechain, is_synthetic, is_prompt, input_tokens, output_tokens,
          cache_creation_tokens, cache_read_tokens, request_id, cache_1h_tokens, reasoning_tokens, request_ref, shown,
          parent_raw, prompt_text, sig, extra_results)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(?, 0), coalesce(?, 0), coalesce(?, 0), ?, ?, ?, ?, ?, ?, ?, ?,
          ?, ?, ?, ?, ?)`,
      ),
      stringId: db.prepare('SELECT id FROM strings WHERE text = ?').pluck(),
      insertString: db.prepare('INSERT INTO strings (text) VALUES (?)'),
      addExtraResults: db.prepare(
        'UPDATE records SET extra_results = coalesce(extra_results, 0) + ? WHERE file_id = ? AND line = ?',
      ),
      countUnknown: db.prepare('UPDATE files SET unknown_records = unknown_records + 1 WHERE id = ?'),
      insertRequest: db.prepare(
        'INSERT OR IGNORE INTO requests (file_id, line, id, ts_ms, agent_id) VALUES (?, ?, ?, ?, ?)',
      ),
      insertTitle: db.prepare(
        'INSERT OR REPLACE INTO titles (file_id, line, source, title, leaf_uuid) VALUES (?, ?, ?, ?, ?)',
      ),
      insertCall: db.prepare(
        `INSERT OR IGNORE INTO calls (file_id, tool_use_id, line, name, offset, ts_text, ts_ms, message_id, agent_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertResult: db.prepare(
        `INSERT OR IGNORE INTO results (file_id, tool_use_id, line, ts_text, ts_ms, offset) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      insertIssue: db.prepare('INSERT INTO issues (file_id, line, code, message) VALUES (?, ?, ?, ?)'),
      insertDoc: db.prepare(
        `INSERT INTO docs (file_id, line, offset, part, ts_text, ts_ms, kind_raw, tool, call_id, agent_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertFts: db.prepare('INSERT INTO docs_fts (rowid, body) VALUES (?, ?)'),
      deleteFts: db.prepare('DELETE FROM docs_fts WHERE rowid IN (SELECT id FROM docs WHERE file_id = ?)'),
      addSecret: db.prepare(
        `INSERT INTO secret_counts (file_id, rule, count) VALUES (?, ?, 1)
         ON CONFLICT (file_id, rule) DO UPDATE SET count = count + 1`,
      ),
      callName: db.prepare('SELECT name FROM calls WHERE tool_use_id = ? LIMIT 1').pluck(),
      // Asked before the update: an UPDATE in a transaction that wrote the FTS table flushes its pending terms (a
      // statement savepoint), so it is run only when a document does wait for its tool's name (rare).
      docWaitsForTool: db.prepare('SELECT 1 FROM docs WHERE call_id = ? AND tool IS NULL LIMIT 1').pluck(),
      fillDocTool: db.prepare('UPDATE docs SET tool = ? WHERE call_id = ? AND tool IS NULL'),
      // In each agent home the first occurrence owns the call (schema-derived.ts). A fork or resume copy has the same
      // timestamp: then the file that started first (its first timestamped line) is the original, whatever the
      // import order (among files that start alike, the session whose row came first). Copies of one session in
      // several folders (the same id, the same start): the newest complete one, its last timestamped line latest,
      // owns the call, as it owns their shared responses (usage-queries.ts).
      firstCall: db.prepare(
        `SELECT file_id, line, offset, name, stored FROM (
           SELECT c.file_id, c.line, c.offset, c.name, c.has_result AS stored, c.rowid AS rid, c.ts_ms, f.role,
             (SELECT r.ts_ms FROM records r WHERE r.file_id = f.id AND r.ts_ms IS NOT NULL ORDER BY r.line LIMIT 1)
               AS began,
             (SELECT r.ts_ms FROM records r WHERE r.file_id = f.id AND r.ts_ms IS NOT NULL ORDER BY r.line DESC LIMIT 1)
               AS ended,
             replace(f.session_id, rtrim(f.session_id, replace(f.session_id, '/', '')), '') AS sid
           FROM calls c JOIN files f ON f.id = c.file_id
           WHERE c.tool_use_id = ? AND f.home = ?)
         ORDER BY (ts_ms IS NULL), ts_ms, (role <> 'main'), (began IS NULL), began,
           min(rid) OVER (PARTITION BY sid), (ended IS NULL), ended DESC, rid
         LIMIT 1`,
      ),
      // The result in the owning call's file when it has one (a copy's result goes with its call), else the first.
      firstResult: db.prepare(
        `SELECT r.file_id, r.line, r.offset FROM results r JOIN files f ON f.id = r.file_id WHERE r.tool_use_id = ? AND f.home = ?
         ORDER BY (r.file_id <> ?), r.rowid LIMIT 1`,
      ),
      cwdAt: db.prepare('SELECT s.text FROM records JOIN strings s ON s.id = cwd_ref WHERE file_id = ? AND line = ?'),
      agentOfFile: db.prepare('SELECT agent FROM files WHERE id = ?').pluck(),
      // The facts stored for an id (one per home; a file dropped meanwhile has none).
      factsOfId: db.prepare(
        `SELECT c.file_id, f.session_id FROM calls c LEFT JOIN files f ON f.id = c.file_id
         WHERE c.tool_use_id = ? AND c.has_result IS NOT NULL`,
      ),
      deleteFact: db.prepare(
        `UPDATE calls SET ${FACT_COLUMNS.map((c) => `${c} = NULL`).join(', ')} WHERE tool_use_id = ? AND file_id = ?`,
      ),
      // A call's fact is stored on the row of its first occurrence in its agent home (schema-derived.ts).
      // The fact's values in FACT_COLUMNS order, then the call's id and file.
      upsertFact: db.prepare(
        `UPDATE calls SET ${FACT_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE tool_use_id = ? AND file_id = ?`,
      ),
      // An id's calls and results, up to three (`storeAhead` needs to know there are at most one of each).
      placesOfId: db.prepare(
        `SELECT 0 AS is_result, file_id, line FROM calls WHERE tool_use_id = ?
           UNION ALL SELECT 1, file_id, line FROM results WHERE tool_use_id = ? LIMIT 3`,
      ),
      occurrencesOfCall: db.prepare(
        'SELECT DISTINCT f.session_id, f.home FROM calls c JOIN files f ON f.id = c.file_id WHERE c.tool_use_id = ?',
      ),
      factsOfFile: db.prepare(
        `SELECT c.tool_use_id, f.home, ${FACT_COLUMNS.map((c) => `c.${c}`).join(', ')}
         FROM calls c JOIN files f ON f.id = c.file_id WHERE c.file_id = ? AND c.has_result IS NOT NULL`,
      ),
      idsOfFile: db
        .prepare(
          'SELECT tool_use_id FROM calls WHERE file_id = ? UNION SELECT tool_use_id FROM results WHERE file_id = ?',
        )
        .pluck(),
    };
  }

  /**
   * Ids of the calls and results stored for a file that is about to be removed or read again: their facts are
   * recomputed when the transaction commits, even where the first call still holds one (`recomputeCalls`).
   */
  idsLeaving(fileId: number): string[] {
    const ids = this.s.idsOfFile.all(fileId, fileId) as string[];
    for (const id of ids) this.leaving.add(id);
    // The facts this file's calls hold, for a copy of them elsewhere whose records cannot be read back then.
    for (const row of this.s.factsOfFile.all(fileId) as (FactColumns & { tool_use_id: string; home: string })[]) {
      const { tool_use_id, home, ...columns } = row;
      const key = `${tool_use_id}\u0000${home}`;
      if (!this.leavingFacts.has(key)) this.leavingFacts.set(key, columns);
    }
    return ids;
  }

  /** Remove everything parsed from a file (before reading it again from byte 0, or dropping it). */
  clearFile(fileId: number): void {
    this.flushTexts(); // Documents leave the full-text index by rowid: held-back ones must be in it first.
    this.s.deleteFts.run(fileId);
    for (const t of ['records', 'requests', 'titles', 'calls', 'results', 'issues', 'docs', 'secret_counts'])
      this.db.prepare(`DELETE FROM ${t} WHERE file_id = ?`).run(fileId);
  }

  /**
   * Store one streamed event of a file (its row operations built here); tool_use ids seen are added to `touched`.
   * `facts`: computes the facts of the calls read here, as a parse worker does.
   */
  handle(
    file: FileRow,
    event: RecordEvent,
    touched: Set<string>,
    counts: { records: number; issues: number },
    facts: FactTracker,
  ): void {
    const ops: Op[] = [];
    opsOfEvent(event, { agentId: file.agent_id, role: file.role }, ops);
    facts.track(event, ops, 0);
    this.apply(file, ops, touched, counts);
  }

  /** After the last event `handle` stored of a file: the facts of its calls that have no result in it. */
  finishFacts(
    file: FileRow,
    facts: FactTracker,
    touched: Set<string>,
    counts: { records: number; issues: number },
  ): void {
    const ops: Op[] = [];
    facts.finish(ops);
    this.apply(file, ops, touched, counts);
  }

  /**
   * Run row operations of a file (`opsOfEvent`, here or in a parse worker), in order. Tool inputs and outputs are
   * indexed only where this file first stored them (a copy in a resumed or forked file is not indexed again).
   */
  apply(file: FileRow, ops: readonly Op[], touched: Set<string>, counts: { records: number; issues: number }): void {
    const s = this.s;
    const fileId = file.id;
    this.secretLine = '';
    let stored = new Set<string>();
    for (const op of ops) {
      switch (op[0]) {
        case OP.begin:
          counts.records += 1;
          if (stored.size > 0) stored = new Set();
          break;
        case OP.issue:
          counts.issues += 1;
          s.insertIssue.run(fileId, op[1], op[2], op[3]);
          break;
        case OP.record: {
          // Stored without its result blocks that have no id, then added: a line holding several records (Gemini,
          // Codex) keeps its first row, and the others' count there too (an insert through the view reports no
          // changes, so it cannot tell which happened).
          const extra = op[op.length - 1] as number | null;
          const stored = s.insertRecord.run(
            fileId,
            ...op.slice(1, 6),
            this.stringId(op[6]),
            this.stringId(op[7]),
            this.stringId(op[8]),
            this.stringId(op[9]),
            ...op.slice(10),
          );
          if (stored.changes === 0 && extra !== null) s.addExtraResults.run(extra, fileId, op[1]);
          break;
        }
        case OP.title:
          s.insertTitle.run(fileId, op[1], op[2], op[3], op[4]);
          // A title the user or the client wrote is shown everywhere: a secret in it counts.
          this.countSecrets(fileId, op[1] as number, (op[5] as readonly string[] | undefined) ?? []);
          break;
        case OP.request:
          s.insertRequest.run(fileId, op[1], op[2], op[3], op[4]);
          break;
        case OP.result: {
          const id = op[1] as string;
          touched.add(id);
          if (s.insertResult.run(fileId, ...op.slice(1)).changes !== 0) stored.add(`tool-output\u0000${id}`);
          // A second result of an id in this file: pairing reports it, on its record's row.
          else s.addExtraResults.run(1, fileId, op[2]);
          break;
        }
        case OP.call: {
          const id = op[1] as string;
          touched.add(id);
          if (s.insertCall.run(fileId, ...op.slice(1)).changes === 0) break;
          if (s.docWaitsForTool.get(id) !== undefined) s.fillDocTool.run(op[3], id);
          stored.add(`tool-input\u0000${id}`);
          break;
        }
        case OP.doc: {
          const callId = op[8] as string | null;
          if (callId !== null) {
            const key = `${op[12] as string}\u0000${callId}`;
            if (!stored.has(key)) break;
            stored.delete(key);
          }
          const tool = op[7] ?? (callId === null ? null : this.callNameOf(callId));
          const { lastInsertRowid } = s.insertDoc.run(
            fileId,
            op[1],
            op[2],
            op[3],
            op[4],
            op[5],
            op[6],
            tool,
            callId,
            op[9],
          );
          this.indexText(lastInsertRowid, op[10] as Uint8Array);
          // Secrets are counted in the texts an export writes (prompts, responses, tool inputs and outputs), by rule
          // only, once per line and rule (as `agentdash secrets` lists them).
          this.countSecrets(fileId, op[1] as number, op[11] as readonly string[]);
          break;
        }
        case OP.fact:
          this.factsAhead.set(`${op[1] as string}\u0000${fileId}`, {
            callLine: op[2] as number,
            resultLine: op[3] as number | null,
            values: op[4] as FactValues,
          });
          break;
        case OP.unknown:
          s.countUnknown.run(fileId);
          break;
        default:
          throw new Error(`unknown row operation ${String(op[0])}`);
      }
    }
  }

  /**
   * Index a document's words: held back and inserted with the batch's others just before it commits (`flushTexts`),
   * because the full-text index writes its pending terms out at every savepoint (one per file), and many small
   * segments cost merging later. Past `MAX_PENDING_BYTES` they are inserted at once (memory stays bounded).
   */
  /** The line whose secrets were counted last (`<file id>:<line>`) and their rules: a line counts a rule once. */
  private secretLine = '';
  private readonly secretLineRules = new Set<string>();

  private countSecrets(fileId: number, line: number, rules: readonly string[]): void {
    if (rules.length === 0) return;
    const at = `${fileId}:${line}`;
    if (at !== this.secretLine) {
      this.secretLine = at;
      this.secretLineRules.clear();
    }
    for (const rule of rules) {
      if (this.secretLineRules.has(rule)) continue;
      this.secretLineRules.add(rule);
      this.s.addSecret.run(fileId, rule);
    }
  }

  private indexText(rowid: number | bigint, text: Uint8Array): void {
    this.pendingTexts.push([rowid, text]);
    this.hold(text);
    if (this.pendingBytes > MAX_PENDING_BYTES) this.flushTexts();
  }

  /** Count what waiting `text` keeps in memory: the whole buffer it is a view of, once. */
  private hold(text: Uint8Array): void {
    if (this.heldBuffers.has(text.buffer)) return;
    this.heldBuffers.add(text.buffer);
    this.pendingBytes += text.buffer.byteLength;
  }

  /** Nothing waits for the full-text index. */
  private releaseTexts(): void {
    this.pendingTexts = [];
    this.heldBuffers = new Set();
    this.pendingBytes = 0;
  }

  /** Insert the held-back documents' words into the full-text index. */
  flushTexts(): void {
    for (const [rowid, text] of this.pendingTexts) this.s.insertFts.run(rowid, text);
    this.releaseTexts();
  }

  /**
   * A savepoint of the open transaction together with the held-back documents' place (`indexText`): rolling back
   * undoes both, so documents stored since are neither in the full-text index nor waiting for it.
   */
  savepoint(name: string): Savepoint {
    this.db.exec(`SAVEPOINT ${name}`);
    // The documents waiting now: a flush replaces the array (`releaseTexts`) and pushes only add to it, so its first
    // `waiting` entries stay these.
    const pending = this.pendingTexts;
    const waiting = pending.length;
    return {
      release: () => this.db.exec(`RELEASE ${name}`),
      rollback: () => {
        this.db.exec(`ROLLBACK TO ${name}`);
        this.db.exec(`RELEASE ${name}`);
        this.stringIds.clear();
        // The full-text inserts since were rolled back with the savepoint, those of documents that waited then
        // included (a flush inside it): those wait again. Documents stored since are gone; their texts are dropped.
        this.releaseTexts();
        this.pendingTexts = pending.slice(0, waiting);
        for (const [, text] of this.pendingTexts) this.hold(text);
      },
    };
  }

  /**
   * The number of a text in `strings`, stored when new (NULL for NULL). Numbers are remembered until the transaction
   * ends or a savepoint is rolled back (which may undo the insert of one): another process may renumber between
   * transactions (a rebuild empties `strings`).
   */
  private stringId(text: unknown): number | null {
    if (text === null || text === undefined) return null;
    const key = String(text);
    let id = this.stringIds.get(key);
    if (id === undefined) {
      id = (this.s.stringId.get(key) as number | undefined) ?? Number(this.s.insertString.run(key).lastInsertRowid);
      this.stringIds.set(key, id);
    }
    return id;
  }

  /** The transaction ended (committed or rolled back): forget what only held within it. */
  endTransaction(): void {
    this.releaseTexts();
    this.factsAhead.clear();
    this.leaving.clear();
    this.leavingFacts.clear();
    this.stringIds.clear();
  }

  private callNameOf(id: string): string | null {
    return (this.s.callName.get(id) as string | undefined) ?? null;
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
    const settled = !this.leaving.has(id) && call.stored !== null && call.stored === (result === undefined ? 0 : 1);
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
    );
  }
}
