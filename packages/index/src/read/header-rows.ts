/**
 * The stored rows a session's header is counted from (session-header.ts): its files, their records (the ones core
 * keeps: copies dropped by core's `CopyFilter`), calls, facts and results, and its files' bytes where a load reads
 * them (on disk, else the archive).
 */

import { closeSync, constants, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { CopyFilter, MAX_META_BYTES, type ThreadFact } from '@agentdash/core';
import { isObj, type Obj } from '../guards.js';
import { archiveOf, prepared } from '../schema/statements.js';
import { RECORD_KINDS, storedKind } from '../schema/stored-values.js';
import type { Store } from './scope.js';

export interface FileRow {
  id: number;
  path: string;
  role: 'main' | 'subagent';
  agent_id: string | null;
  meta_path: string | null;
  records: number;
  unknown_records: number;
  agent: string;
}

export interface RecordRow {
  line: number;
  /** `records.kind_raw`: a kind's number in RECORD_KINDS, else the kind. */
  kind: string;
  /** The stored uuid in hex (a key, not the uuid's text); '' when none. */
  key: string;
  /** The uuid as text, only for sidechain records (it names their run). */
  uuid: string | null;
  ts_text: string | null;
  ts_ms: number | null;
  message_id: string | null;
  is_sidechain: number;
  /** `records.shown`: 1 a prompt, 2 another event the timeline shows, 0 neither. */
  shown: number;
  /** The parent's uuid in hex, as `key` (sidechain records only). */
  parent: string;
  prompt_text: string | null;
  sig: string | null;
  extra_results: number | null;
  /** The subagent whose record the row copies (write/copy-rows.ts: its thread, not the file's), else null. */
  copy_of: string | null;
}

/** A call occurrence: tool_use id, line, name, time, and its subagent (`calls.agent_id`). */
export type CallTuple = [string, number, string, number | null, string | null];
/**
 * A call's classified fact (columns of its row in `calls`, one per id and agent home):
 * `[id, is_error, severity, task_id, agent_ref, subagent_prompt, subagent_type]`.
 */
export type FactTuple = [string, number, string | null, string | null, string | null, string | null, string | null];

export const CHAIN_KINDS: ReadonlySet<string> = new Set(
  ['user', 'assistant', 'system', 'attachment', 'progress'].map((k) => storedKind(k, RECORD_KINDS)),
);
export const USER = storedKind('user', RECORD_KINDS);
export const ASSISTANT = storedKind('assistant', RECORD_KINDS);

export const FILES = `SELECT id, path, role, agent_id, meta_path, records, unknown_records, agent FROM files
  WHERE session_id = ? ORDER BY role, path`;
// The stored columns, not the computed ones (a uuid's text, a timestamp's ISO form): a large session has many rows.
export const RECORD_COLUMNS = `line, kind_raw AS kind, hex(uuid_raw) AS key, CASE WHEN is_sidechain = 1 THEN uuid END AS uuid,
    ts_text, ts_ms, message_id, is_sidechain, shown, hex(parent_raw) AS parent, prompt_text, sig, extra_results, copy_of`;
export const RECORDS = `SELECT ${RECORD_COLUMNS} FROM records WHERE file_id = ? ORDER BY line`;
export const SIDECHAIN_RECORDS = `SELECT ${RECORD_COLUMNS} FROM records WHERE file_id = ? AND is_sidechain = 1 ORDER BY line`;
/** Whether a uuid repeats in a set of files (`?`: their ids as a JSON array): only then may a record be a copy. */
export const REPEATED_UUID = `SELECT 1 FROM records WHERE file_id IN (SELECT value FROM json_each(?)) AND uuid_raw IS NOT NULL
  GROUP BY uuid_raw HAVING count(*) > 1 LIMIT 1`;
/**
 * A long main thread's facts for core's `ThreadTally` (`addCounted`), counted in SQL by its rule: records the timeline
 * shows by default (`shown`: 1 a prompt, 2 a note, 0 neither), and responses each once by their key
 * (`responseKeyOf`). Reading every row into JS instead takes many times as long for a session of tens of thousands
 * of records.
 */
export const MAIN_COUNTS = `SELECT count(*) FILTER (WHERE shown > 0) AS shown, count(*) FILTER (WHERE shown = 1) AS prompts,
    count(DISTINCT CASE WHEN kind_raw = '${ASSISTANT}' THEN coalesce(message_id, hex(uuid_raw)) END) AS responses
  FROM records WHERE file_id = ? AND is_sidechain = 0`;
export const EXTRA_RESULTS = 'SELECT coalesce(sum(extra_results), 0) FROM records WHERE file_id = ?';
export const CALLS = 'SELECT tool_use_id, line, name, ts_ms, agent_id FROM calls WHERE file_id = ? ORDER BY line';
// A fact is stored with the file of the call's first occurrence in its agent home: nearly always one of the
// session's own, else (a fork or resume copy) another session's of the same home.
export const FACT_COLUMNS =
  'c.tool_use_id AS id, c.is_error, c.severity, c.task_id, c.agent_ref, c.subagent_prompt, c.subagent_type';
export const FACTS_OF_FILE = `SELECT ${FACT_COLUMNS} FROM calls c WHERE c.file_id = ? AND c.has_result IS NOT NULL`;
export const FACT = `SELECT ${FACT_COLUMNS} FROM calls c JOIN files f ON f.id = c.file_id
  WHERE c.tool_use_id = ? AND c.has_result IS NOT NULL AND f.home = (SELECT home FROM files WHERE id = ?)`;
// Records the `records` table does not keep (the second record of a line) have their times in calls and results.
export const STAMPS = `SELECT ts_text, ts_ms FROM calls WHERE file_id = ? AND ts_ms IS NOT NULL
  UNION ALL SELECT ts_text, ts_ms FROM results WHERE file_id = ? AND ts_ms IS NOT NULL`;
/** The parse issues stored with a session's files (`sessions.issues` adds pairing's, which the header counts itself). */
/** A session's failed requests and retried attempts, as its summary row counts them (write/sessions.ts). */
export const FAILED_REQUESTS = 'SELECT api_errors AS failed, api_retries AS retried FROM sessions WHERE id = ?';
export const STORED_ISSUES = 'SELECT COUNT(*) FROM issues i JOIN files f ON f.id = i.file_id WHERE f.session_id = ?';
export const MESSAGE_AT = 'SELECT message_id FROM records WHERE file_id = ? AND line = ?';
export const RESULTS = 'SELECT tool_use_id AS id, line FROM results WHERE file_id = ? ORDER BY line';

/**
 * The records core keeps (core's `CopyFilter`), per file: a uuid an earlier file holds is a copy; within a file, a
 * repeat of the same record. When no uuid repeats in the session's files (nearly always), nothing is a copy: only the
 * main file's sidechain records are read whole (`mainRead` false: a long session has tens of thousands of main
 * records, which `MAIN_COUNTS` counts).
 */
export function keptRecords(
  db: Store['db'],
  files: readonly FileRow[],
  main: FileRow | undefined,
): { duplicateRecords: number; kept: Map<number, RecordRow[]>; mainRead: boolean } {
  const kept = new Map<number, RecordRow[]>();
  const ids = JSON.stringify(files.map((f) => f.id));
  if (prepared(db, REPEATED_UUID, 'pluck').get(ids) === undefined) {
    for (const file of files) {
      kept.set(file.id, prepared(db, file === main ? SIDECHAIN_RECORDS : RECORDS).all(file.id) as RecordRow[]);
    }
    return { duplicateRecords: 0, kept, mainRead: false };
  }
  let duplicateRecords = 0;
  const copies = new CopyFilter();
  for (const file of files) {
    const rows: RecordRow[] = [];
    for (const row of prepared(db, RECORDS).all(file.id) as RecordRow[]) {
      if (row.key !== '' && CHAIN_KINDS.has(row.kind) && copies.isCopy(row.key, signatureOf(row))) {
        duplicateRecords += 1;
        continue;
      }
      rows.push(row);
    }
    copies.endFile();
    kept.set(file.id, rows);
  }
  return { duplicateRecords, kept, mainRead: true };
}

/** A stored record's response key for core's `ThreadTally`: its message id, else its uuid (`MAIN_COUNTS` alike). */
export function responseKeyOf(row: Pick<RecordRow, 'kind' | 'message_id' | 'key'>): string | undefined {
  return row.kind === ASSISTANT ? (row.message_id ?? row.key) : undefined;
}

/**
 * A stored record's facts for core's `ThreadTally`, as `threadFactOf` gave them at import. `prompt_text` is stored for
 * the records of subagent threads only: the main thread's prompt is not asked for.
 */
export function threadFactOfRow(
  row: Pick<RecordRow, 'kind' | 'message_id' | 'key' | 'shown' | 'prompt_text'>,
): ThreadFact {
  const shows = row.shown === 1 ? 'prompt' : row.shown === 2 ? 'note' : undefined;
  return { shows, responseKey: responseKeyOf(row), unknown: false, prompt: row.prompt_text ?? undefined };
}

/**
 * What the row keeps of core's `signatureOf` (kind, time, message id, and the block ids `sig` keeps for placeholder
 * uuids), for core's `CopyFilter`. (ts_text, ts_ms) tells timestamps apart as their text does: ts_text is kept only
 * when it is not the ISO form of ts_ms.
 */
export function signatureOf(row: RecordRow): string {
  return JSON.stringify([row.kind, row.ts_text, row.ts_ms, row.message_id, row.sig]);
}

/** Whether a load can read the file: on disk as a regular file it may open, else from the archive (as it reads). */
export function readableNow(store: Store, path: string): boolean {
  if (!existsSync(path)) return archiveOf(store.db).end(path) > 0;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    return fstatSync(fd).isFile();
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A subagent's `.meta.json` (a few hundred bytes), read only when neither the call nor its result names the type: on
 * disk when it is a regular file of at most core's `MAX_META_BYTES` (never a FIFO or a device), else from the archive, as
 * core's `loadSession` reads it through the index.
 */
export function metaOf(store: Store, path: string | null): Obj {
  if (path === null) return {};
  try {
    let bytes: Buffer;
    if (existsSync(path)) {
      // Non-blocking: opening a FIFO for reading would otherwise wait for a writer (fstat then turns it down).
      const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        const info = fstatSync(fd);
        if (!info.isFile() || info.size > MAX_META_BYTES) return {};
        bytes = Buffer.alloc(info.size);
        bytes = bytes.subarray(0, readSync(fd, bytes, 0, info.size, 0));
      } finally {
        closeSync(fd);
      }
    } else {
      const archive = archiveOf(store.db);
      const end = archive.end(path);
      if (end === 0 || end > MAX_META_BYTES) return {};
      bytes = Buffer.alloc(end);
      bytes = bytes.subarray(0, archive.source(path).readSync(bytes, 0, end, 0));
    }
    const parsed: unknown = JSON.parse(bytes.toString('utf8'));
    return isObj(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
