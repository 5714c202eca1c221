/**
 * A session's header from the stored rows, without reading its transcript (issue 8: the header of a 200 MB session
 * in well under a second). It rebuilds what core's `loadSession` reads — the same records kept (copies dropped by
 * uuid), the same threads (the main one, subagent runs inside the main file, subagent files), the same links from
 * subagent calls to subagents (core's `matchSubagents`) — over what the importer stored: `records.shown` (core's
 * `timelineShows`), `parent_raw` and `prompt_text`, `files.unknown_records`, and each call fact's `task_id` (core's
 * `backgroundTaskOf`) and `agent_ref`; then counts with core's header rules (`headerCountsOf`, `extremesBy`), as the
 * server's session view does over a loaded session. `session-header.test.ts` (server) checks it against the loaded
 * session's header.
 */

import { closeSync, constants, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import {
  CopyFilter,
  extremesBy,
  type HeaderCall,
  headerCountsOf,
  matchSubagents,
  type SessionCounts,
  type SubagentLinkKind,
  type SubagentSummary,
} from '@agentdash/core';
import { adapterForFile, agentOfRow } from '../agents.js';
import { isObj, type Obj, str } from '../guards.js';
import { archiveOf, prepared } from '../schema/statements.js';
import { RECORD_KINDS, storedKind } from '../schema/stored-values.js';
import type { Store } from './scope.js';
import { sessionKeyOfRef } from './session-queries.js';

/** A subagent run as the header lists it (the server's `SubagentInfo`). */
export type SubagentHeader = SubagentSummary;

/** What a session's header holds beyond its summary row and usage (the server's `SessionDetail`). */
export interface SessionHeaderParts {
  /** Events of the main timeline the dashboard shows by default. */
  readonly totalEvents: number;
  readonly subagents: readonly SubagentHeader[];
  readonly counts: SessionCounts;
  readonly issues: number;
  /** Calls per canonical tool name, in the order the tools first appear. */
  readonly toolCounts: Readonly<Record<string, number>>;
  /** Background shell or async agent id → the call that started it. */
  readonly shells: Readonly<Record<string, string>>;
}

interface FileRow {
  id: number;
  path: string;
  role: 'main' | 'subagent';
  agent_id: string | null;
  meta_path: string | null;
  records: number;
  unknown_records: number;
  agent: string;
}

interface RecordRow {
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
  shown: number | null;
  /** The parent's uuid in hex, as `key` (sidechain records only). */
  parent: string;
  prompt_text: string | null;
  sig: string | null;
  extra_results: number | null;
}

/** A call occurrence: tool_use id, line, name, time. */
type CallTuple = [string, number, string, number | null];
/**
 * A call's classified fact (columns of its row in `calls`, one per id and agent home):
 * `[id, is_error, severity, task_id, agent_ref, subagent_prompt, subagent_type]`.
 */
type FactTuple = [string, number, string | null, string | null, string | null, string | null, string | null];

interface Thread {
  readonly key: string;
  readonly agentId: string | undefined;
  readonly records: RecordRow[];
  readonly unknown: number;
  readonly metaPath: string | null;
  /** The file of a subagent file's thread (its calls' and results' times count too: a line may hold several records). */
  readonly fileId?: number;
  /** The main thread counted in SQL (none of the session's records is a copy), its `records` not read. */
  readonly counted?: MainCounts | undefined;
}

interface MainCounts {
  readonly shown: number;
  readonly prompts: number;
  readonly assistant: number;
}

interface SessionCall {
  readonly id: string;
  readonly line: number;
  readonly name: string;
  readonly ts_ms: number | null;
  readonly fileId: number;
  readonly canonical: string;
  readonly thread: Thread | undefined;
  readonly is_error: number | null;
  readonly severity: string | null;
  readonly task_id: string | null;
  readonly agent_ref: string | null;
  /** The prompt a call that starts a subagent gave it, and the agent type (call-fact.ts). */
  readonly subagent_prompt: string | null;
  readonly subagent_type: string | null;
}

const CHAIN_KINDS: ReadonlySet<string> = new Set(
  ['user', 'assistant', 'system', 'attachment', 'progress'].map((k) => storedKind(k, RECORD_KINDS)),
);
const USER = storedKind('user', RECORD_KINDS);
const ASSISTANT = storedKind('assistant', RECORD_KINDS);

const FILES = `SELECT id, path, role, agent_id, meta_path, records, unknown_records, agent FROM files
  WHERE session_id = ? ORDER BY role, path`;
// The stored columns, not the computed ones (a uuid's text, a timestamp's ISO form): a large session has many rows.
const RECORD_COLUMNS = `line, kind_raw AS kind, hex(uuid_raw) AS key, CASE WHEN is_sidechain = 1 THEN uuid END AS uuid,
    ts_text, ts_ms, message_id, is_sidechain, shown, hex(parent_raw) AS parent, prompt_text, sig, extra_results`;
const RECORDS = `SELECT ${RECORD_COLUMNS} FROM records WHERE file_id = ? ORDER BY line`;
const SIDECHAIN_RECORDS = `SELECT ${RECORD_COLUMNS} FROM records WHERE file_id = ? AND is_sidechain = 1 ORDER BY line`;
/** Whether a uuid repeats in a set of files (`?`: their ids as a JSON array): only then may a record be a copy. */
const REPEATED_UUID = `SELECT 1 FROM records WHERE file_id IN (SELECT value FROM json_each(?)) AND uuid_raw IS NOT NULL
  GROUP BY uuid_raw HAVING count(*) > 1 LIMIT 1`;
/** The main thread's events (records with `shown`, each response once by its message id) and prompts. */
const MAIN_COUNTS = `SELECT count(shown) AS shown, count(CASE WHEN shown = 1 THEN 1 END) AS prompts,
    count(DISTINCT CASE WHEN kind_raw = '${ASSISTANT}'
      THEN coalesce(message_id, hex(uuid_raw)) END) AS assistant
  FROM records WHERE file_id = ? AND is_sidechain = 0`;
const EXTRA_RESULTS = 'SELECT coalesce(sum(extra_results), 0) FROM records WHERE file_id = ?';
const CALLS = 'SELECT tool_use_id, line, name, ts_ms FROM calls WHERE file_id = ? ORDER BY line';
// A fact is stored with the file of the call's first occurrence in its agent home: nearly always one of the
// session's own, else (a fork or resume copy) another session's of the same home.
const FACT_COLUMNS =
  'c.tool_use_id AS id, c.is_error, c.severity, c.task_id, c.agent_ref, c.subagent_prompt, c.subagent_type';
const FACTS_OF_FILE = `SELECT ${FACT_COLUMNS} FROM calls c WHERE c.file_id = ? AND c.has_result IS NOT NULL`;
const FACT = `SELECT ${FACT_COLUMNS} FROM calls c JOIN files f ON f.id = c.file_id
  WHERE c.tool_use_id = ? AND c.has_result IS NOT NULL AND f.home = (SELECT home FROM files WHERE id = ?)`;
// Records the `records` table does not keep (the second record of a line) have their times in calls and results.
const STAMPS = `SELECT ts_text, ts_ms FROM calls WHERE file_id = ? AND ts_ms IS NOT NULL
  UNION ALL SELECT ts_text, ts_ms FROM results WHERE file_id = ? AND ts_ms IS NOT NULL`;
const STORED_ISSUES = 'SELECT issues FROM sessions WHERE id = ?';
const RESULTS = 'SELECT tool_use_id AS id, line FROM results WHERE file_id = ? ORDER BY line';

/**
 * The header parts of the session `ref` names (see `getSession`). Undefined when the index cannot tell them: no such
 * session, or a file of it cannot be read now (a load reports it, with what the other files hold).
 */
export function sessionHeader(store: Store, ref: string): SessionHeaderParts | undefined {
  const key = sessionKeyOfRef(store, ref);
  if (key === undefined) return undefined;
  const db = store.db;
  const files = prepared(db, FILES).all(key) as FileRow[];
  if (!files.every((f) => readableNow(store, f.path))) return undefined;
  const main = files.find((f) => f.role === 'main');
  const adapter = adapterForFile({ agent: agentOfRow((main ?? files[0])?.agent) });

  const { duplicateRecords, kept, mainCounts } = keptRecords(db, files, main);

  // Threads: the main one, subagent runs written inside the main file (by parent), then subagent files.
  const mainRows = main ? (kept.get(main.id) ?? []) : [];
  const mainThread: Thread = {
    key: '',
    agentId: undefined,
    records: mainRows.filter((r) => r.is_sidechain === 0),
    unknown: main?.unknown_records ?? 0,
    metaPath: null,
    counted: mainCounts,
  };
  const threads: Thread[] = [];
  const runOfRecord = new Map<string, Thread>();
  for (const row of mainRows) {
    if (row.is_sidechain === 0) continue;
    const parent = row.parent === '' ? undefined : runOfRecord.get(row.parent);
    let run = parent;
    if (!run) {
      run = { key: `sidechain:${row.uuid ?? ''}`, agentId: undefined, records: [], unknown: 0, metaPath: null };
      threads.push(run);
    }
    run.records.push(row);
    if (row.key !== '') runOfRecord.set(row.key, run);
  }
  const threadOfFile = new Map<number, Thread>();
  for (const file of files) {
    if (file.role !== 'subagent') continue;
    const thread: Thread = {
      key: file.agent_id ?? file.path,
      agentId: file.agent_id ?? undefined,
      records: kept.get(file.id) ?? [],
      unknown: file.unknown_records,
      metaPath: file.meta_path,
      fileId: file.id,
    };
    threads.push(thread);
    threadOfFile.set(file.id, thread);
  }

  const mainByLine = new Map(mainRows.map((r) => [r.line, r]));
  const recordThread = (fileId: number, line: number): Thread | undefined => {
    if (fileId !== main?.id) return threadOfFile.get(fileId);
    const row = mainByLine.get(line);
    // only the sidechain rows of the main file are read when none is a copy: the others are the main thread's
    if (row === undefined) return mainCounts === undefined ? undefined : mainThread;
    if (row.is_sidechain === 0) return mainThread;
    return row.key === '' ? undefined : runOfRecord.get(row.key);
  };
  const canonical = new Map<string, string>();
  const canonicalOf = (name: string) => {
    let c = canonical.get(name);
    if (c === undefined) {
      c = adapter.canonicalToolName(name);
      canonical.set(name, c);
    }
    return c;
  };
  // Calls: each id once, where core first meets it (main file first, then subagent files; by line). Rows come as
  // arrays (a long session has thousands).
  const facts = new Map<string, FactTuple>();
  for (const file of files) {
    for (const fact of prepared(db, FACTS_OF_FILE, 'raw').all(file.id) as FactTuple[]) facts.set(fact[0], fact);
  }
  const calls: SessionCall[] = [];
  const callsById = new Map<string, SessionCall>();
  for (const file of files) {
    for (const [id, line, name, tsMs] of prepared(db, CALLS, 'raw').all(file.id) as CallTuple[]) {
      if (callsById.has(id)) continue;
      const fact = facts.get(id) ?? (prepared(db, FACT, 'raw').get(id, file.id) as FactTuple | undefined);
      const call: SessionCall = {
        id,
        line,
        name,
        ts_ms: tsMs,
        fileId: file.id,
        canonical: canonicalOf(name),
        thread: recordThread(file.id, line),
        is_error: fact?.[1] ?? null,
        severity: fact?.[2] ?? null,
        task_id: fact?.[3] ?? null,
        agent_ref: fact?.[4] ?? null,
        subagent_prompt: fact?.[5] ?? null,
        subagent_type: fact?.[6] ?? null,
      };
      calls.push(call);
      callsById.set(id, call);
    }
  }

  const { callToThread, linkedBy } = linkThreads(calls, threads, (c) => adapter.kindOfTool?.(c.canonical) === 'agent');
  const threadToCall = new Map([...callToThread].map(([callId, threadKey]) => [threadKey, callId]));
  const callsByThread = new Map<Thread | undefined, SessionCall[]>();
  for (const call of calls) {
    const list = callsByThread.get(call.thread);
    if (list) list.push(call);
    else callsByThread.set(call.thread, [call]);
  }
  const headerCall = (call: SessionCall): HeaderCall => ({
    id: call.id,
    canonicalName: call.canonical,
    isError: call.is_error === 1,
    expected: call.severity === 'expected',
    taskId: call.task_id ?? undefined,
    startedThread: callToThread.get(call.id),
  });
  const counted = headerCountsOf({
    calls: calls.map(headerCall),
    main: main ? { shownEvents: shownEvents(mainThread) } : undefined,
    threads: threads.map((thread) => ({
      key: thread.key,
      started: threadToCall.has(thread.key),
      shownEvents: shownEvents(thread),
      calls: (callsByThread.get(thread) ?? []).map(headerCall),
    })),
  });

  const subagents = threads.map((thread, index): SubagentHeader => {
    const parentCallId = threadToCall.get(thread.key);
    const parent = parentCallId === undefined ? undefined : callsById.get(parentCallId);
    const stamps = extremes(
      thread.fileId === undefined
        ? thread.records
        : [...thread.records, ...(prepared(db, STAMPS).all(thread.fileId, thread.fileId) as Stamp[])],
    );
    const { toolCalls, errors, expectedErrors } = counted.threads[index] ?? {
      toolCalls: 0,
      errors: 0,
      expectedErrors: 0,
    };
    return {
      key: thread.key,
      agentId: thread.agentId ?? null,
      parentCallId: parentCallId ?? null,
      linkedBy: linkedBy.get(thread.key) ?? 'unlinked',
      prompt: promptOf(thread) ?? parent?.subagent_prompt ?? null,
      agentType: parent?.subagent_type ?? str(metaOf(store, thread.metaPath).agentType) ?? null,
      startedAt: stamps.first ?? null,
      endedAt: stamps.last ?? null,
      events: shownEvents(thread),
      toolCalls,
      errors,
      expectedErrors,
    };
  });

  // Issues: the stored parse issues, plus what pairing finds over the kept records: a result whose call is nowhere in
  // the session, a second result of an id (in the same file, counted at import, or in another file), one without id.
  const answered = new Set<string>();
  let pairing = 0;
  for (const file of files) {
    // every record is kept when none is a copy
    const keptLines = mainCounts === undefined ? new Set((kept.get(file.id) ?? []).map((r) => r.line)) : undefined;
    if (keptLines === undefined) pairing += prepared(db, EXTRA_RESULTS, 'pluck').get(file.id) as number;
    else for (const row of kept.get(file.id) ?? []) pairing += row.extra_results ?? 0;
    for (const result of prepared(db, RESULTS, 'rows').all(file.id) as { id: string; line: number }[]) {
      if (keptLines !== undefined && !keptLines.has(result.line)) continue;
      if (answered.has(result.id)) pairing++;
      else {
        answered.add(result.id);
        if (!callsById.has(result.id)) pairing++;
      }
    }
  }

  return {
    totalEvents: counted.totalEvents,
    subagents,
    counts: {
      records: files.reduce((n, f) => n + f.records, 0),
      duplicateRecords,
      unknownRecords: files.reduce((n, f) => n + f.unknown_records, 0),
      prompts: mainCounts?.prompts ?? mainThread.records.filter((r) => r.shown === 1).length,
      assistantMessages: [mainThread, ...threads].reduce((n, t) => n + assistantEvents(t), 0),
      toolCalls: counted.toolCalls,
      errors: counted.errors,
      expectedErrors: counted.expectedErrors,
    },
    issues: ((prepared(db, STORED_ISSUES, 'pluck').get(key) as number | undefined) ?? 0) + pairing,
    toolCounts: counted.toolCounts,
    shells: counted.shells,
  };
}

/**
 * The records core keeps (core's `CopyFilter`), per file: a uuid an earlier file holds is a copy; within a file, a
 * repeat of the same record. When no uuid repeats in the session's files (nearly always), nothing is a copy: the main
 * thread is then counted in SQL and only the main file's sidechain records are read (a long session has tens of
 * thousands).
 */
function keptRecords(
  db: Store['db'],
  files: readonly FileRow[],
  main: FileRow | undefined,
): { duplicateRecords: number; kept: Map<number, RecordRow[]>; mainCounts: MainCounts | undefined } {
  const kept = new Map<number, RecordRow[]>();
  const ids = JSON.stringify(files.map((f) => f.id));
  if (prepared(db, REPEATED_UUID, 'pluck').get(ids) === undefined) {
    for (const file of files) {
      kept.set(file.id, prepared(db, file === main ? SIDECHAIN_RECORDS : RECORDS).all(file.id) as RecordRow[]);
    }
    const mainCounts = main ? (prepared(db, MAIN_COUNTS).get(main.id) as MainCounts) : undefined;
    return { duplicateRecords: 0, kept, mainCounts: mainCounts ?? { shown: 0, prompts: 0, assistant: 0 } };
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
  return { duplicateRecords, kept, mainCounts: undefined };
}

/** Link subagent calls to threads as core's `linkSubagents` does (core's `matchSubagents`, over stored rows). */
function linkThreads(
  calls: readonly SessionCall[],
  threads: readonly Thread[],
  startsSubagent: (call: SessionCall) => boolean,
): { callToThread: Map<string, string>; linkedBy: Map<string, SubagentLinkKind> } {
  // `agent_ref` is stored only for the calls that can start a subagent (and names the agent their result names).
  const agentCalls = calls.filter((c) => startsSubagent(c) || c.agent_ref !== null);
  return matchSubagents(agentCalls, threads, {
    callId: (call) => call.id,
    agentIdOf: (call) => call.agent_ref ?? undefined,
    promptOfCall: (call) => call.subagent_prompt ?? undefined,
    callMs: (call) => call.ts_ms ?? undefined,
    threadKey: (thread) => thread.key,
    threadAgentId: (thread) => thread.agentId,
    promptOfThread: promptOf,
    threadMs: (thread) => firstPrompt(thread)?.ts_ms ?? undefined,
  });
}

/**
 * What the row keeps of core's `signatureOf` (kind, time, message id, and the block ids `sig` keeps for placeholder
 * uuids), for core's `CopyFilter`. (ts_text, ts_ms) tells timestamps apart as their text does: ts_text is kept only
 * when it is not the ISO form of ts_ms.
 */
function signatureOf(row: RecordRow): string {
  return JSON.stringify([row.kind, row.ts_text, row.ts_ms, row.message_id, row.sig]);
}

/** The thread's first user message that is not meta (its `prompt_text` is stored). */
function firstPrompt(thread: Thread): RecordRow | undefined {
  return thread.records.find((r) => r.kind === USER && r.prompt_text !== null);
}

function promptOf(thread: Thread): string | undefined {
  return firstPrompt(thread)?.prompt_text ?? undefined;
}

function assistantEvents(thread: Thread): number {
  if (thread.counted) return thread.counted.assistant;
  const keys = new Set<string>();
  for (const r of thread.records) if (r.kind === ASSISTANT) keys.add(r.message_id ?? r.key);
  return keys.size;
}

/** Events the timeline shows by default: prompts and shown notes, each response once, unknown records. */
function shownEvents(thread: Thread): number {
  if (thread.counted) return thread.counted.shown + thread.counted.assistant + thread.unknown;
  let shown = 0;
  for (const r of thread.records) if (r.shown !== null) shown++;
  return shown + assistantEvents(thread) + thread.unknown;
}

type Stamp = Pick<RecordRow, 'ts_text' | 'ts_ms'>;

/** The earliest and the latest timestamp (core's `extremesBy`: the first met of equal ones), as written. */
function extremes(records: readonly Stamp[]): { first: string | undefined; last: string | undefined } {
  const { first, last } = extremesBy(records, (r) => r.ts_ms ?? undefined);
  return { first: first && tsText(first), last: last && tsText(last) };
}

/** A record's timestamp as written (`ts` of the schema: the kept text, else the ISO form of `ts_ms`). */
function tsText(r: Stamp): string | undefined {
  if (r.ts_text !== null) return r.ts_text;
  return r.ts_ms === null ? undefined : new Date(r.ts_ms).toISOString();
}

/** Whether a load can read the file: on disk as a regular file it may open, else from the archive (as it reads). */
function readableNow(store: Store, path: string): boolean {
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

/** Largest subagent `.meta.json` read (as core's `loadSession`). */
const MAX_META_BYTES = 1024 * 1024;

/**
 * A subagent's `.meta.json` (a few hundred bytes), read only when neither the call nor its result names the type: on
 * disk when it is a regular file of at most `MAX_META_BYTES` (never a FIFO or a device), else from the archive, as
 * core's `loadSession` reads it through the index.
 */
function metaOf(store: Store, path: string | null): Obj {
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
