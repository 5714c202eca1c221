import {
  type AssistantRecord,
  agentIdOfResult,
  createIsoTimestamp,
  createRecordUuid,
  createToolUseId,
  type DiscoveredFile,
  hiddenReasonOf,
  primaryDurationMs,
  promptTitleOf,
  type RawCall,
  type RawResult,
  type RecordEvent,
  type ResultContent,
  type ToolCall,
  type TranscriptRecord,
  timestampDurations,
  timestampMs,
  userText,
} from '@agentdash/core';
import { summarizeCall } from '@agentdash/core/present';
import { findSecrets } from '@agentdash/core/secrets';
import type Database from 'better-sqlite3';
import { adapterForFile, agentOfRow } from './agents.js';
import { type DocPart, docPartsOf, isPromptRecord } from './doc-parts.js';
import { packJson, unpackJson } from './packed-json.js';
import { DOC_KINDS, RECORD_KINDS, storedKind, storedTs, storedUuid } from './schema-compact.js';

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

/** Longest string kept inside a stored ok result (it is stored only to classify and summarise the call). */
const MAX_STORED_STRING = 256;

/** Cut long strings inside a JSON value (file contents in Edit/Read results and the like). */
export function shrink(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_STORED_STRING ? value.slice(0, MAX_STORED_STRING) : value;
  if (Array.isArray(value)) return value.map(shrink);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = shrink(v);
    return out;
  }
  return value;
}

/** Prepared statements for importing and recomputing. */
export class Writer {
  private readonly s;
  constructor(private readonly db: Database.Database) {
    this.s = {
      // One row per line: the first record of a line is kept. An adapter may derive several records from one line
      // (Gemini writes a model turn, its tool calls and their results in one message): the first is the response,
      // with its model and usage; the calls and results that follow are stored by id in their own tables.
      insertRecord: db.prepare(
        `INSERT OR IGNORE INTO records (file_id, line, kind_raw, uuid_raw, ts_text, ts_ms, cwd, version, git_branch, model, message_id,
          is_sidechain, is_synthetic, is_prompt, input_tokens, output_tokens, cache_creation_tokens, cache_read_tokens,
          request_id, cache_1h_tokens, reasoning_tokens, request_ref, shown, parent_raw, prompt_text, sig, extra_results)
         VALUES (@file_id, @line, @kind_raw, @uuid_raw, @ts_text, @ts_ms, @cwd, @version, @git_branch, @model, @message_id,
          @is_sidechain, @is_synthetic, @is_prompt, @input_tokens, @output_tokens, @cache_creation_tokens, @cache_read_tokens,
          @request_id, @cache_1h_tokens, @reasoning_tokens, @request_ref, @shown, @parent_raw, @prompt_text, @sig, @extra_results)`,
      ),
      insertRequest: db.prepare(
        'INSERT OR IGNORE INTO requests (file_id, line, id, ts_ms, agent_id) VALUES (?, ?, ?, ?, ?)',
      ),
      insertTitle: db.prepare(
        'INSERT OR REPLACE INTO titles (file_id, line, source, title, leaf_uuid) VALUES (?, ?, ?, ?, ?)',
      ),
      insertCall: db.prepare(
        `INSERT OR IGNORE INTO calls (file_id, tool_use_id, line, name, input, ts_text, ts_ms, message_id, agent_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertResult: db.prepare(
        `INSERT OR IGNORE INTO results (file_id, tool_use_id, line, uuid_raw, ts_text, ts_ms, is_error, content,
          tool_use_result)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      addExtraResults: db.prepare(
        'UPDATE records SET extra_results = coalesce(extra_results, 0) + ? WHERE file_id = ? AND line = ?',
      ),
      countUnknown: db.prepare('UPDATE files SET unknown_records = unknown_records + 1 WHERE id = ?'),
      insertIssue: db.prepare('INSERT INTO issues (file_id, line, code, message) VALUES (?, ?, ?, ?)'),
      insertDoc: db.prepare(
        `INSERT INTO docs (file_id, line, offset, part, ts_text, ts_ms, kind_raw, tool, call_id, agent_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertFts: db.prepare('INSERT INTO docs_fts (rowid, body) VALUES (?, ?)'),
      addSecret: db.prepare(
        `INSERT INTO secret_counts (file_id, rule, count) VALUES (?, ?, 1)
         ON CONFLICT (file_id, rule) DO UPDATE SET count = count + 1`,
      ),
      callName: db.prepare('SELECT name FROM calls WHERE tool_use_id = ? LIMIT 1').pluck(),
      fillDocTool: db.prepare('UPDATE docs SET tool = ? WHERE call_id = ? AND tool IS NULL'),
      // The first occurrence owns the call. A fork or resume copy has the same timestamp: then the file that
      // started first (its first timestamped line) is the original, whatever the import order.
      firstCall: db.prepare(
        `SELECT c.rowid, c.*, f.session_id,
           (SELECT r.ts_ms FROM records r WHERE r.file_id = f.id AND r.ts_ms IS NOT NULL ORDER BY r.line LIMIT 1) AS began
         FROM calls c JOIN files f ON f.id = c.file_id
         WHERE c.tool_use_id = ? ORDER BY (c.ts_ms IS NULL), c.ts_ms, (f.role <> 'main'), (began IS NULL), began, c.rowid
         LIMIT 1`,
      ),
      firstResult: db.prepare('SELECT * FROM results WHERE tool_use_id = ? ORDER BY rowid LIMIT 1'),
      cwdAt: db.prepare('SELECT cwd FROM records WHERE file_id = ? AND line = ?').pluck(),
      agentOfFile: db.prepare('SELECT agent FROM files WHERE id = ?').pluck(),
      factSession: db.prepare('SELECT session_id FROM call_facts WHERE tool_use_id = ?').pluck(),
      deleteFact: db.prepare('DELETE FROM call_fact_rows WHERE tool_use_id = ?'),
      upsertFact: db.prepare(
        // The fact's session is its file's (the `call_facts` view joins it).
        `INSERT OR REPLACE INTO call_fact_rows (tool_use_id, file_id, line, name, canonical_name, ts_text, ts_ms,
          agent_id, has_result, is_error, category, severity, error_message, exit_code, duration_ms, summary, task_id,
          agent_ref)
         VALUES (@tool_use_id, @file_id, @line, @name, @canonical_name, @ts_text, @ts_ms, @agent_id,
          @has_result, @is_error, @category, @severity, @error_message, @exit_code, @duration_ms, @summary, @task_id,
          @agent_ref)`,
      ),
      sessionsOfCall: db
        .prepare('SELECT DISTINCT f.session_id FROM calls c JOIN files f ON f.id = c.file_id WHERE c.tool_use_id = ?')
        .pluck(),
      idsOfFile: db
        .prepare(
          'SELECT tool_use_id FROM calls WHERE file_id = ? UNION SELECT tool_use_id FROM results WHERE file_id = ?',
        )
        .pluck(),
    };
  }

  /** Ids of the calls and results stored for a file. */
  idsOfFile(fileId: number): string[] {
    return this.s.idsOfFile.all(fileId, fileId) as string[];
  }

  /** Remove everything parsed from a file (before re-reading it from the start). */
  clearFile(fileId: number): void {
    for (const table of ['records', 'requests', 'titles', 'calls', 'results', 'issues', 'docs', 'secret_counts']) {
      this.db.prepare(`DELETE FROM ${table} WHERE file_id = ?`).run(fileId);
    }
  }

  /** Handle one streamed event of a file; tool_use ids seen are added to `touched`. */
  handle(file: FileRow, event: RecordEvent, touched: Set<string>, counts: { records: number; issues: number }): void {
    if (event.kind === 'issue') {
      counts.issues += 1;
      this.s.insertIssue.run(file.id, event.issue.line, event.issue.code, event.issue.message);
      return;
    }
    counts.records += 1;
    this.handleRecord(file, event.record, touched);
  }

  /** Index one searchable text of a record: its place in the transcript, and its words (the text is not stored). */
  private doc(file: FileRow, record: TranscriptRecord, index: number, part: DocPart, agentId: string | null): void {
    const ts = 'timestamp' in record ? record.timestamp : undefined;
    const tool = part.tool ?? (part.callId === undefined ? null : this.callNameOf(part.callId));
    const ms = timestampMs(ts) ?? null;
    const { lastInsertRowid } = this.s.insertDoc.run(
      file.id,
      record.loc.line,
      record.loc.offset,
      index,
      storedTs(ts, ms),
      ms,
      storedKind(part.kind, DOC_KINDS),
      tool,
      part.callId ?? null,
      agentId,
    );
    this.s.insertFts.run(lastInsertRowid, part.text);
    // Secrets are counted in the texts an export writes (prompts, responses, tool inputs and outputs), by rule only.
    for (const found of findSecrets(part.text)) this.s.addSecret.run(file.id, found.rule);
  }

  private callNameOf(id: string): string | null {
    return (this.s.callName.get(id) as string | undefined) ?? null;
  }

  /** Index the searchable texts of a record; tool inputs and outputs only where this file first stored them. */
  private docs(file: FileRow, record: TranscriptRecord, agentId: string | null, stored: Set<string>): void {
    const parts = docPartsOf(record);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as DocPart;
      if (part.callId !== undefined) {
        const key = `${part.kind}\u0000${part.callId}`;
        if (!stored.has(key)) continue;
        stored.delete(key);
      }
      this.doc(file, record, i, part, agentId);
    }
  }

  private handleRecord(file: FileRow, record: TranscriptRecord, touched: Set<string>): void {
    const line = record.loc.line;
    switch (record.kind) {
      case 'user':
      case 'assistant':
      case 'system':
      case 'attachment':
      case 'progress': {
        const agentId = record.isSidechain ? (record.agentId ?? file.agent_id ?? 'sidechain') : null;
        const isPrompt = isPromptRecord(record);
        const assistant = record.kind === 'assistant' ? record : undefined;
        const ms = timestampMs(record.timestamp) ?? null;
        // Tool inputs and outputs this file stores first (a copy in a resumed or forked file is not indexed again).
        const stored = new Set<string>();
        // Result blocks pairing reports as issues: one without an id, or a second one of an id in this file.
        let extraResults = 0;
        if (record.kind === 'user') {
          // The first one in the main file titles the session when it has no other title (core's one rule).
          const title = promptTitleOf(record);
          if (title !== undefined) this.s.insertTitle.run(file.id, record.loc.line, 'first-prompt', title, null);
          if (typeof record.content !== 'string') {
            for (const block of record.content) {
              if (block.kind !== 'tool-result') continue;
              if (block.toolUseId === '') {
                extraResults += 1;
                continue;
              }
              touched.add(block.toolUseId);
              const inserted = this.s.insertResult.run(
                file.id,
                block.toolUseId,
                line,
                storedUuid(record.uuid),
                storedTs(record.timestamp, ms),
                ms,
                block.isError ? 1 : 0,
                // Errors are kept whole (their text is classified); ok results only need their shape and numbers.
                packJson(block.isError ? block.content : shrink(block.content)),
                record.toolUseResult === undefined
                  ? null
                  : packJson(block.isError ? record.toolUseResult : shrink(record.toolUseResult)),
              );
              if (inserted.changes !== 0) stored.add(`tool-output\u0000${block.toolUseId}`);
              else extraResults += 1;
            }
          }
        } else if (record.kind === 'assistant') {
          for (const block of record.content) {
            switch (block.kind) {
              case 'tool-use': {
                touched.add(block.id);
                const inserted = this.s.insertCall.run(
                  file.id,
                  block.id,
                  line,
                  block.name,
                  block.input === undefined ? null : packJson(block.input),
                  storedTs(record.timestamp, ms),
                  ms,
                  record.messageId ?? null,
                  agentId,
                );
                if (inserted.changes === 0) break;
                this.s.fillDocTool.run(block.name, block.id);
                stored.add(`tool-input\u0000${block.id}`);
                break;
              }
              default:
                break;
            }
          }
        }
        const insertedRecord = this.s.insertRecord.run({
          file_id: file.id,
          line,
          kind_raw: storedKind(record.kind, RECORD_KINDS),
          uuid_raw: storedUuid(record.uuid),
          ts_text: storedTs(record.timestamp, ms),
          ts_ms: ms,
          cwd: record.cwd ?? null,
          version: record.version ?? null,
          git_branch: record.gitBranch ?? null,
          model: assistant?.model ?? null,
          message_id: assistant?.messageId ?? null,
          is_sidechain: record.isSidechain ? 1 : 0,
          is_synthetic: syntheticKind(assistant),
          is_prompt: isPrompt ? 1 : 0,
          input_tokens: assistant?.usage?.inputTokens ?? null,
          output_tokens: assistant?.usage?.outputTokens ?? null,
          cache_creation_tokens: assistant?.usage?.cacheCreationInputTokens ?? null,
          cache_read_tokens: assistant?.usage?.cacheReadInputTokens ?? null,
          request_id: assistant?.requestId ?? null,
          cache_1h_tokens: assistant?.usage?.cacheCreation1hInputTokens ?? null,
          reasoning_tokens: assistant?.usage?.reasoningOutputTokens ?? null,
          request_ref: assistant?.requestRef ?? null,
          shown: shownOf(record),
          // Subagent runs written inside a main file (≤2.0.27) are told apart by their parents.
          parent_raw: record.isSidechain ? storedUuid(record.parentUuid) : null,
          // What a subagent was asked (its first user message): in a subagent's file, or a sidechain run.
          prompt_text:
            record.kind === 'user' && !record.isMeta && (record.isSidechain || file.role === 'subagent')
              ? userText(record.content)
              : null,
          sig: signatureOf(record),
          extra_results: extraResults === 0 ? null : extraResults,
        });
        // A line holding several records (Gemini, Codex) keeps its first: the results of the others count there.
        if (insertedRecord.changes === 0 && extraResults > 0) this.s.addExtraResults.run(extraResults, file.id, line);
        this.docs(file, record, agentId, stored);
        return;
      }
      case 'title':
        this.s.insertTitle.run(file.id, line, record.source, record.title, null);
        return;
      case 'summary':
        this.s.insertTitle.run(file.id, line, 'summary', record.summary, record.leafUuid ?? null);
        return;
      case 'last-prompt':
      case 'queue-operation':
      case 'file-history-snapshot':
      case 'cost-state':
      case 'meta':
        // Not chain records, but their timestamps count for the session's time range (as in core).
        if (record.timestamp !== undefined) {
          const ms = timestampMs(record.timestamp) ?? null;
          this.s.insertRecord.run({
            file_id: file.id,
            line,
            kind_raw: storedKind(record.kind, RECORD_KINDS),
            uuid_raw: null,
            ts_text: storedTs(record.timestamp, ms),
            ts_ms: ms,
            cwd: null,
            version: null,
            git_branch: null,
            model: null,
            message_id: null,
            is_sidechain: 0,
            is_synthetic: 0,
            is_prompt: 0,
            input_tokens: null,
            output_tokens: null,
            cache_creation_tokens: null,
            cache_read_tokens: null,
            request_id: null,
            cache_1h_tokens: null,
            reasoning_tokens: null,
            request_ref: null,
            shown: null,
            parent_raw: null,
            prompt_text: null,
            sig: null,
            extra_results: null,
          });
        }
        return;
      case 'api-request': {
        // A request as it went out (not its blobs or shapes): where a wait on the model starts.
        const ts = timestampMs(record.timestamp);
        if (record.type === 'api-request' && record.id !== undefined && ts !== undefined) {
          this.s.insertRequest.run(file.id, line, record.id, ts, record.agentId ?? null);
        }
        return;
      }
      case 'unknown':
        // Not stored, but counted: a record of a type AgentDash does not know shows in the timeline.
        this.s.countUnknown.run(file.id);
        return;
      default:
        record satisfies never;
    }
  }

  /**
   * Recompute the joined, classified fact row of one tool_use id from its stored call and result occurrences.
   * Returns the sessions whose figures may have changed.
   */
  recomputeCall(id: string, sessions: Set<string>): void {
    const before = this.s.factSession.get(id) as string | undefined;
    if (before !== undefined) sessions.add(before);
    for (const sid of this.s.sessionsOfCall.all(id) as string[]) sessions.add(sid);
    const call = this.s.firstCall.get(id) as
      | {
          file_id: number;
          line: number;
          name: string;
          input: string | Buffer | null;
          ts: string | null;
          ts_ms: number | null;
          message_id: string | null;
          agent_id: string | null;
          session_id: string;
        }
      | undefined;
    if (call === undefined) {
      this.s.deleteFact.run(id);
      return;
    }
    sessions.add(call.session_id);
    const resultRow = this.s.firstResult.get(id) as
      | {
          file_id: number;
          line: number;
          uuid: string | null;
          ts: string | null;
          is_error: number;
          content: string | Buffer;
          tool_use_result: string | Buffer | null;
        }
      | undefined;
    const raw: RawCall = {
      id: createToolUseId(id),
      name: call.name,
      input: call.input === null ? undefined : unpackJson(call.input),
      timestamp: call.ts === null ? undefined : createIsoTimestamp(call.ts),
      loc: { file: '', line: call.line, offset: 0 },
      messageId: call.message_id ?? undefined,
    };
    const rawResult: RawResult | undefined = resultRow
      ? {
          toolUseId: createToolUseId(id),
          uuid: createRecordUuid(resultRow.uuid ?? ''),
          timestamp: resultRow.ts === null ? undefined : createIsoTimestamp(resultRow.ts),
          loc: { file: '', line: resultRow.line, offset: 0 },
          isError: resultRow.is_error === 1,
          content: unpackJson(resultRow.content) as ResultContent,
          toolUseResult: resultRow.tool_use_result === null ? undefined : unpackJson(resultRow.tool_use_result),
        }
      : undefined;
    // The call's agent types its result (every file of a session is one agent's).
    const adapter = adapterForFile({ agent: agentOfRow(this.s.agentOfFile.get(call.file_id) as string | undefined) });
    const result = rawResult ? adapter.typeResult(raw, rawResult) : undefined;
    const canonicalName = adapter.canonicalToolName(call.name);
    const cwd = (this.s.cwdAt.get(call.file_id, call.line) as string | null | undefined) ?? undefined;
    const typing = {
      toolKind: adapter.kindOfTool?.(canonicalName),
      typedInput: adapter.typeInput?.(canonicalName, raw.input),
    };
    const summary = summarizeCall({ name: call.name, canonicalName, input: raw.input, ...typing, result }, cwd);
    const durationMs = primaryDurationMs({
      durations: adapter.durationsOf?.(raw, rawResult) ?? timestampDurations(raw, rawResult),
    });
    this.s.upsertFact.run({
      tool_use_id: id,
      file_id: call.file_id,
      line: call.line,
      name: call.name,
      canonical_name: canonicalName,
      ts_text: storedTs(call.ts, call.ts_ms),
      ts_ms: call.ts_ms,
      agent_id: call.agent_id,
      has_result: result ? 1 : 0,
      is_error: result?.isError ? 1 : 0,
      category: result?.error?.category ?? null,
      severity: result?.error?.severity ?? null,
      error_message: result?.error?.message ?? null,
      exit_code: result?.error?.exitCode ?? null,
      duration_ms: durationMs ?? null,
      summary,
      task_id: taskIdOf(result),
      // The subagent its result names, for the calls that can start one (`linkSubagents` in core).
      agent_ref:
        typing.toolKind === 'agent' ||
        (isObject(rawResult?.toolUseResult) && typeof rawResult.toolUseResult.agentId === 'string')
          ? (agentIdOfResult(rawResult) ?? null)
          : null,
    });
  }
}

const SHOWN_HIDDEN: ReadonlySet<string> = new Set(['compact-summary', 'command', 'interrupt', 'task-notification']);

/**
 * `records.shown`: 1 a prompt, 2 another event the timeline shows by default (as the server's session view picks
 * them), null otherwise. Assistant records show once per response, counted by message id.
 */
function shownOf(record: TranscriptRecord): 1 | 2 | null {
  if (record.kind === 'user') {
    const hidden = hiddenReasonOf(record);
    if (hidden === undefined) return 1;
    return SHOWN_HIDDEN.has(hidden) ? 2 : null;
  }
  if (record.kind === 'system') {
    return record.subtype === 'turn_duration' || record.subtype === 'stop_hook_summary' ? null : 2;
  }
  return null;
}

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What tells records of one uuid apart in one file (core's `signatureOf`: kind, time, message id and the ids its
 * blocks carry), stored only for a uuid that is not a canonical one: placeholders that hand-made files repeat.
 * Records of a real uuid repeated in a file are copies, told apart by kind, time and message id.
 */
function signatureOf(
  record: Extract<TranscriptRecord, { kind: 'user' | 'assistant' | 'system' | 'attachment' | 'progress' }>,
): string | null {
  if (typeof storedUuid(record.uuid) !== 'string') return null;
  const blocks = record.kind === 'user' || record.kind === 'assistant' ? record.content : [];
  const ids =
    typeof blocks === 'string'
      ? [blocks.length]
      : blocks.map((b) => (b.kind === 'tool-use' ? b.id : b.kind === 'tool-result' ? b.toolUseId : b.kind));
  return JSON.stringify(ids);
}

/** The background shell or async agent a call's result started (the header's `shells`), if any. */
function taskIdOf(result: ToolCall['result']): string | null {
  const typed = result?.typed;
  if (typed?.kind === 'bash') return typed.data.backgroundTaskId ?? null;
  if (typed?.kind === 'agent' && typed.data.status === 'async_launched') return typed.data.agentId ?? null;
  return null;
}

/** `records.is_synthetic`: 0 a model's response (or no response), 1 an API error the client wrote, 2 another note. */
function syntheticKind(assistant: AssistantRecord | undefined): 0 | 1 | 2 {
  if (assistant === undefined || !(assistant.isSynthetic || assistant.model === '<synthetic>')) return 0;
  return assistant.isApiErrorMessage ? 1 : 2;
}
