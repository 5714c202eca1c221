/**
 * A session's header from the stored rows, without reading its transcript (issue 8: the header of a 200 MB session
 * in well under a second). It rebuilds what core's `loadSession` reads — the same records kept (copies dropped by
 * uuid), the same threads (the main one, subagent runs inside the main file, subagent files), the same links from
 * subagent calls to subagents (core's `matchSubagents`) — over what the importer stored: `records.shown` and
 * `prompt_text` (core's `threadFactOf`), `parent_raw`, `files.unknown_records`, and each call fact's `task_id` (core's
 * `backgroundTaskOf`) and `agent_ref`; then counts with core's rules: each thread's events, responses and first prompt
 * (`ThreadTally`), the pairing issues (`ResultPairing`), the calls (`headerCountsOf`), the time range (`extremesBy`),
 * as a load and the server's session view do over a loaded session. `session-header.test.ts` (server) checks it
 * against the loaded session's header.
 */

import {
  extremesBy,
  type HeaderCall,
  headerCountsOf,
  isWarmup,
  matchSubagents,
  ResultPairing,
  reusedCallId,
  type SessionCounts,
  SidechainRuns,
  type SubagentLinkKind,
  type SubagentSummary,
  sidechainKey,
  ThreadTally,
} from '@agentdash/core';
import { adapterForFile, agentOfRow } from '../agents.js';
import { str } from '../guards.js';
import { prepared } from '../schema/statements.js';
import {
  CALLS,
  type CallTuple,
  EXTRA_RESULTS,
  FACT,
  FACTS_OF_FILE,
  FAILED_REQUESTS,
  type FactTuple,
  FILES,
  type FileRow,
  keptRecords,
  MAIN_COUNTS,
  MESSAGE_AT,
  metaOf,
  RESULTS,
  type RecordRow,
  readableNow,
  STAMPS,
  STORED_ISSUES,
  threadFactOfRow,
} from './header-rows.js';
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
  /**
   * Whether its main file is among its files, given where the session's files are not listed with it (a team
   * server's, from the files pushed); else the server tells it from the files (`hasMainFile`).
   */
  readonly mainFile?: boolean;
}

interface Thread {
  readonly key: string;
  readonly agentId: string | undefined;
  readonly records: RecordRow[];
  readonly unknown: number;
  readonly metaPath: string | null;
  /** The file of a subagent file's thread (its calls' and results' times count too: a line may hold several records). */
  readonly fileId?: number;
  /** Its counts by core's rule (`ThreadTally`), over its kept records' stored facts and its file's unknown records. */
  tally?: ThreadTally<number | null>;
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

  const { duplicateRecords, kept, mainRead } = keptRecords(db, files, main);

  // Threads: the main one, subagent runs written inside the main file (by parent), then subagent files.
  const mainRows = main ? (kept.get(main.id) ?? []) : [];
  const mainThread: Thread = {
    key: '',
    agentId: undefined,
    records: mainRows.filter((r) => r.is_sidechain === 0),
    unknown: main?.unknown_records ?? 0,
    metaPath: null,
  };
  if (!mainRead && main) {
    // None of the records is a copy: the main thread counted in SQL (a long session has tens of thousands).
    const tally = new ThreadTally<number | null>();
    tally.addCounted(prepared(db, MAIN_COUNTS).get(main.id) as { shown: number; prompts: number; responses: number });
    tally.addUnknown(mainThread.unknown);
    mainThread.tally = tally;
  }
  const threads: Thread[] = [];
  // Subagents whose records a file holds as copies, taken as their thread (write/copy-rows.ts: none has a file here),
  // a thread each after the files', in the order their first copy is met (core's `EmbeddedThreads`).
  const copyThreads = new Map<string, Thread>();
  const takeCopy = (row: RecordRow): boolean => {
    if (row.copy_of === null) return false;
    let thread = copyThreads.get(row.copy_of);
    if (thread === undefined) {
      thread = { key: row.copy_of, agentId: row.copy_of, records: [], unknown: 0, metaPath: null };
      copyThreads.set(row.copy_of, thread);
    }
    thread.records.push(row);
    return true;
  };
  const runs = new SidechainRuns<Thread>();
  for (const row of mainRows) {
    if (row.is_sidechain === 0 || takeCopy(row)) continue;
    const { run, started } = runs.take(nonEmpty(row.key), nonEmpty(row.parent), () => ({
      key: sidechainKey(row.uuid ?? ''),
      agentId: undefined,
      records: [],
      unknown: 0,
      metaPath: null,
    }));
    if (started) threads.push(run);
    run.records.push(row);
  }
  const threadOfFile = new Map<number, Thread>();
  for (const file of files) {
    if (file.role !== 'subagent') continue;
    const thread: Thread = {
      key: file.agent_id ?? file.path,
      agentId: file.agent_id ?? undefined,
      records: (kept.get(file.id) ?? []).filter((row) => !takeCopy(row)),
      unknown: file.unknown_records,
      metaPath: file.meta_path,
      fileId: file.id,
    };
    threads.push(thread);
    threadOfFile.set(file.id, thread);
  }
  threads.push(...copyThreads.values());

  const mainByLine = new Map(mainRows.map((r) => [r.line, r]));
  const recordThread = (fileId: number, line: number, agentId: string | null): Thread | undefined => {
    // A copy's call is its subagent's (stored with its agent, at its holder's line).
    const copied = agentId === null ? undefined : copyThreads.get(agentId);
    if (copied !== undefined) return copied;
    if (fileId !== main?.id) return threadOfFile.get(fileId);
    const row = mainByLine.get(line);
    // only the sidechain rows of the main file are read when none is a copy: the others are the main thread's
    if (row === undefined) return mainRead ? undefined : mainThread;
    if (row.is_sidechain === 0) return mainThread;
    return row.key === '' ? undefined : runs.of(row.key);
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
  // Calls reusing another file's call id (core's `reusedCallId`; those in one file are stored issues of the import).
  let reused = 0;
  const messageAt = (fileId: number, line: number) =>
    (prepared(db, MESSAGE_AT, 'pluck').get(fileId, line) as string | null | undefined) ?? undefined;
  for (const file of files) {
    for (const [id, line, name, tsMs, agentId] of prepared(db, CALLS, 'raw').all(file.id) as CallTuple[]) {
      const seen = callsById.get(id);
      if (seen !== undefined) {
        const at = (fileId: number, l: number) => ({ messageId: messageAt(fileId, l), loc: { file: '', line: l } });
        if (reusedCallId({ name: seen.name, ...at(seen.fileId, seen.line) }, id, name, at(file.id, line))) reused++;
        continue;
      }
      const fact = facts.get(id) ?? (prepared(db, FACT, 'raw').get(id, file.id) as FactTuple | undefined);
      const call: SessionCall = {
        id,
        line,
        name,
        ts_ms: tsMs,
        fileId: file.id,
        canonical: canonicalOf(name),
        thread: recordThread(file.id, line, agentId),
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
  // The client's cache warm-ups are not subagents (core's `isWarmup`), as a load leaves them out.
  const warmups = threads.filter((thread) =>
    isWarmup({
      started: threadToCall.has(thread.key),
      tally: tallyOf(thread),
      toolCalls: callsByThread.get(thread)?.length ?? 0,
    }),
  );
  const subagentThreads = threads.filter((thread) => !warmups.includes(thread));
  const counted = headerCountsOf({
    calls: calls.map(headerCall),
    main: main ? { shownEvents: shownEvents(mainThread) } : undefined,
    threads: subagentThreads.map((thread) => ({
      key: thread.key,
      started: threadToCall.has(thread.key),
      shownEvents: shownEvents(thread),
      calls: (callsByThread.get(thread) ?? []).map(headerCall),
    })),
  });

  const subagents = subagentThreads.map((thread, index): SubagentHeader => {
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
  const pairing = new ResultPairing();
  for (const file of files) {
    // every record is kept when none is a copy
    const keptLines = mainRead ? new Set((kept.get(file.id) ?? []).map((r) => r.line)) : undefined;
    if (keptLines === undefined) pairing.addDuplicates(prepared(db, EXTRA_RESULTS, 'pluck').get(file.id) as number);
    else for (const row of kept.get(file.id) ?? []) pairing.addDuplicates(row.extra_results ?? 0);
    for (const result of prepared(db, RESULTS, 'rows').all(file.id) as { id: string; line: number }[]) {
      if (keptLines === undefined || keptLines.has(result.line)) pairing.first(result.id);
    }
  }

  const failures = prepared(db, FAILED_REQUESTS).get(key) as { failed: number; retried: number } | undefined;
  return {
    totalEvents: counted.totalEvents,
    subagents,
    counts: {
      records: files.reduce((n, f) => n + f.records, 0),
      duplicateRecords,
      unknownRecords: files.reduce((n, f) => n + f.unknown_records, 0),
      prompts: tallyOf(mainThread).prompts,
      assistantMessages: [mainThread, ...threads].reduce((n, t) => n + tallyOf(t).responses, 0),
      toolCalls: counted.toolCalls,
      errors: counted.errors,
      expectedErrors: counted.expectedErrors,
      failedRequests: failures?.failed ?? 0,
      retriedRequests: failures?.retried ?? 0,
      warmups: warmups.length,
    },
    issues:
      ((prepared(db, STORED_ISSUES, 'pluck').get(key) as number | undefined) ?? 0) +
      reused +
      pairing.issues((id) => callsById.has(id)),
    toolCounts: counted.toolCounts,
    shells: counted.shells,
  };
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
    threadMs: (thread) => tallyOf(thread).firstPrompt?.stamp ?? undefined,
  });
}

/** A thread's counts by core's `ThreadTally`, from its kept records' stored facts (counted once). */
function tallyOf(thread: Thread): ThreadTally<number | null> {
  if (thread.tally) return thread.tally;
  const tally = new ThreadTally<number | null>();
  for (const r of thread.records) tally.add(threadFactOfRow(r), r.ts_ms);
  tally.addUnknown(thread.unknown);
  thread.tally = tally;
  return tally;
}

function promptOf(thread: Thread): string | undefined {
  return tallyOf(thread).firstPrompt?.text;
}

function shownEvents(thread: Thread): number {
  return tallyOf(thread).shownEvents;
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

/** A stored key or parent key ('' when the record has none). */
function nonEmpty(key: string): string | undefined {
  return key === '' ? undefined : key;
}
