/**
 * The one writer of imported rows: stores the row operations of a file's records (record-rows.ts) inside the open
 * transaction, holds documents back for the full-text index, and keeps the calls' facts right (call-facts.ts).
 */
import type { EmbeddedThreads, RecordEvent } from '@agentdash/core';
import type Database from 'better-sqlite3';
import type { FileRow, ReadRecords } from '../file-row.js';
import { prepared, preparedOnUse } from '../schema/prepared.js';
import { FILE_TABLES } from '../schema/schema-derived.js';
import type { FactTracker } from './call-fact.js';
import { CallFacts } from './call-facts.js';
import { opsWithCopies } from './copy-rows.js';
import type { DocNumbers } from './doc-parts.js';
import { reusedCallIssue } from './reused-call.js';
import { OP, type Op } from './row-ops.js';
import type { CallBind, DocBind, IssueBind, RecordBind, RequestBind, ResultBind, TitleBind } from './row-types.js';

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
  /** The calls' facts of the open transaction. */
  private readonly facts: CallFacts;
  constructor(private readonly db: Database.Database) {
    this.facts = new CallFacts(db);
    this.s = preparedOnUse({
      // One row per line: the first record of a line is kept. An adapter may derive several records from one line
      // (Gemini writes a model turn, its tool calls and their results in one message): the first is the response,
      // with its model and usage; the calls and results that follow are stored by id in their own tables.
      // A record's repeated texts by their number in `strings`, numbered once per transaction (`stringId`).
      insertRecord: () =>
        db.prepare<RecordBind>(
          `INSERT OR IGNORE INTO records (file_id, line, kind_raw, uuid_raw, ts_text, ts_ms, cwd_ref, version_ref,
          git_branch_ref, model_ref, message_id, is_sidechain, is_synthetic, shown, input_tokens, output_tokens,
          cache_creation_tokens, cache_read_tokens, request_id, cache_1h_tokens, reasoning_tokens, request_ref,
          parent_raw, prompt_text, sig, extra_results, output_at_least, turns_unrecorded, copy_of)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(?, 0), coalesce(?, 0), coalesce(?, 0), ?, ?, ?, ?, ?, ?, ?, ?,
          ?, ?, ?, ?, ?, ?, ?)`,
        ),
      stringId: () => db.prepare('SELECT id FROM strings WHERE text = ?').pluck(),
      insertString: () => db.prepare('INSERT INTO strings (text) VALUES (?)'),
      addExtraResults: () =>
        db.prepare('UPDATE records SET extra_results = coalesce(extra_results, 0) + ? WHERE file_id = ? AND line = ?'),
      countUnknown: () => db.prepare('UPDATE files SET unknown_records = unknown_records + 1 WHERE id = ?'),
      insertRequest: () =>
        db.prepare<RequestBind>(
          'INSERT OR IGNORE INTO requests (file_id, line, id, ts_ms, agent_id) VALUES (?, ?, ?, ?, ?)',
        ),
      insertTitle: () =>
        db.prepare<TitleBind>(
          'INSERT OR REPLACE INTO titles (file_id, line, source, title, leaf_uuid) VALUES (?, ?, ?, ?, ?)',
        ),
      insertCall: () =>
        db.prepare<CallBind>(
          `INSERT OR IGNORE INTO calls (file_id, tool_use_id, line, name, offset, ts_text, ts_ms, agent_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ),
      insertResult: () =>
        db.prepare<ResultBind>(
          `INSERT OR IGNORE INTO results (file_id, tool_use_id, line, ts_text, ts_ms, offset) VALUES (?, ?, ?, ?, ?, ?)`,
        ),
      insertHook: () => db.prepare('INSERT OR IGNORE INTO pre_hooks (tool_use_id, file_id) VALUES (?, ?)'),
      insertIssue: () => db.prepare<IssueBind>('INSERT INTO issues (file_id, line, code, message) VALUES (?, ?, ?, ?)'),
      insertDoc: () =>
        db.prepare<DocBind>(
          `INSERT INTO docs (file_id, line, offset, part, ts_text, ts_ms, kind_raw, tool, call_id, agent_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ),
      insertFts: () => db.prepare('INSERT INTO docs_fts (rowid, body) VALUES (?, ?)'),
      deleteFts: () => db.prepare('DELETE FROM docs_fts WHERE rowid IN (SELECT id FROM docs WHERE file_id = ?)'),
      addSecret: () =>
        db.prepare(
          `INSERT INTO secret_counts (file_id, rule, count) VALUES (?, ?, 1)
         ON CONFLICT (file_id, rule) DO UPDATE SET count = count + 1`,
        ),
      callName: () => db.prepare('SELECT name FROM calls WHERE tool_use_id = ? LIMIT 1').pluck(),
      // Asked before the update: an UPDATE in a transaction that wrote the FTS table flushes its pending terms (a
      // statement savepoint), so it is run only when a document does wait for its tool's name (rare).
      docWaitsForTool: () => db.prepare('SELECT 1 FROM docs WHERE call_id = ? AND tool IS NULL LIMIT 1').pluck(),
      fillDocTool: () => db.prepare('UPDATE docs SET tool = ? WHERE call_id = ? AND tool IS NULL'),
    });
  }

  /**
   * Ids of the calls and results stored for a file that is about to be removed or read again: their facts are
   * recomputed when the transaction commits (`CallFacts.idsLeaving`).
   */
  idsLeaving(fileId: number): string[] {
    return this.facts.idsLeaving(fileId);
  }

  /** Remove everything parsed from a file (before reading it again from byte 0, or dropping it). */
  clearFile(fileId: number): void {
    this.flushTexts(); // Documents leave the full-text index by rowid: held-back ones must be in it first.
    this.s.deleteFts.run(fileId);
    for (const t of FILE_TABLES) prepared(this.db, `DELETE FROM ${t} WHERE file_id = ?`).run(fileId);
  }

  /**
   * Store one streamed event of a file (its row operations built here); tool_use ids seen are added to `touched`.
   * `facts`: computes the facts of the calls read here, as a parse worker does; `copies`: the subagent records copied
   * into the file that are their thread (copy-rows.ts); `docs`: the read's document numbers.
   */
  handle(
    file: FileRow,
    event: RecordEvent,
    touched: Set<string>,
    counts: { records: number; issues: number },
    facts: FactTracker,
    copies: EmbeddedThreads | undefined,
    docs: DocNumbers,
  ): void {
    const ops: Op[] = [];
    opsWithCopies(event, { agentId: file.agent_id, role: file.role, docs }, ops, facts, copies);
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
          // By position, each value a plain argument: a destructuring iterates, and a spread builds the call's
          // arguments at run time (this runs for every record of a cold index).
          const line = op[1];
          const inserted = s.insertRecord.run(
            fileId,
            line,
            op[2],
            op[3],
            op[4],
            op[5],
            this.stringId(op[6]),
            this.stringId(op[7]),
            this.stringId(op[8]),
            this.stringId(op[9]),
            op[10],
            op[11],
            op[12],
            op[13],
            op[14],
            op[15],
            op[16],
            op[17],
            op[18],
            op[19],
            op[20],
            op[21],
            op[22],
            op[23],
            op[24],
            op[25],
            op[26],
            op[27],
            op[28] ?? null,
          );
          const extra = op[25];
          if (inserted.changes === 0 && extra !== null) s.addExtraResults.run(extra, fileId, line);
          break;
        }
        case OP.title:
          s.insertTitle.run(fileId, op[1], op[2], op[3], op[4]);
          // A title the user or the client wrote is shown everywhere: a secret in it counts.
          this.countSecrets(fileId, op[1], op[5] ?? []);
          break;
        case OP.request:
          s.insertRequest.run(fileId, op[1], op[2], op[3], op[4]);
          break;
        case OP.result: {
          const id = op[1];
          const line = op[2];
          touched.add(id);
          if (s.insertResult.run(fileId, id, line, op[3], op[4], op[5]).changes !== 0) {
            stored.add(`tool-output\u0000${id}`);
            this.facts.noteResult(id, fileId);
          }
          // A second result of an id in this file: pairing reports it, on its record's row.
          else s.addExtraResults.run(1, fileId, line);
          break;
        }
        case OP.call: {
          const id = op[1];
          const name = op[3];
          touched.add(id);
          if (s.insertCall.run(fileId, id, op[2], name, op[4], op[5], op[6], op[7]).changes === 0) {
            const reused = reusedCallIssue(this.db, file, id, name, op[2]);
            if (reused !== undefined) {
              counts.issues += 1;
              s.insertIssue.run(fileId, reused.line, reused.code, reused.message);
            }
            break;
          }
          if (s.docWaitsForTool.get(id) !== undefined) s.fillDocTool.run(name, id);
          stored.add(`tool-input\u0000${id}`);
          break;
        }
        case OP.doc: {
          const line = op[1];
          const callId = op[8];
          if (callId !== null) {
            const key = `${op[12]}\u0000${callId}`;
            if (!stored.has(key)) break;
            stored.delete(key);
          }
          const { lastInsertRowid } = s.insertDoc.run(
            fileId,
            line,
            op[2],
            op[3],
            op[4],
            op[5],
            op[6],
            op[7] ?? (callId === null ? null : this.callNameOf(callId)),
            callId,
            op[9],
          );
          this.indexText(lastInsertRowid, op[10]);
          // Secrets are counted in the texts an export writes (prompts, responses, tool inputs and outputs), by rule
          // only, once per line and rule (as `agentdash secrets` lists them).
          this.countSecrets(fileId, line, op[11]);
          break;
        }
        case OP.fact:
          this.facts.noteAhead(fileId, op);
          break;
        case OP.unknown:
          s.countUnknown.run(fileId);
          break;
        case OP.hook:
          if (s.insertHook.run(op[1], fileId).changes !== 0) this.facts.noteHook(op[1]);
          touched.add(op[1]);
          break;
        default: {
          const unknown: never = op;
          throw new Error(`unknown row operation ${String((unknown as readonly unknown[])[0])}`);
        }
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
    this.facts.endTransaction();
    this.stringIds.clear();
  }

  private callNameOf(id: string): string | null {
    return (this.s.callName.get(id) as string | undefined) ?? null;
  }

  /** Recompute the facts of these tool_use ids (`CallFacts.recomputeCalls`); adds the sessions that may change. */
  recomputeCalls(ids: Iterable<string>, sessions: Set<string>, read: ReadRecords): Promise<void> {
    return this.facts.recomputeCalls(ids, sessions, read);
  }
}
