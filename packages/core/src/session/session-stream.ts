import { adapterForFile } from '../agents/adapters.js';
import { messageOf } from '../errors.js';
import type { DiscoveredFile, SessionFiles } from '../io/discover.js';
import { agentIds } from '../model/agent.js';
import { createSubagentId, timestampMs } from '../model/ids.js';
import type { ParseIssue } from '../model/issue.js';
import type { RawResult } from '../model/raw.js';
import type { TranscriptRecord } from '../model/record.js';
import type { Session, SessionFileInfo, Subagent, TimelineEvent } from '../model/session.js';
import { matchSubagents } from '../model/subagent-links.js';
import type { ToolCall, ToolResult } from '../model/tool-call.js';
import { ThreadAssembler } from './assemble.js';
import { orphanCall, toolCallOf } from './build-call.js';
import { filedAgents } from './embedded.js';
import { type HeaderCall, headerCallOf, headerCountsOf } from './header.js';
import { type LoadSessionOptions, type SessionHead, sessionHeadOf } from './load-session.js';
import { missingMainIssue } from './missing-main.js';
import { readMeta } from './read-meta.js';

export type { SessionHead };

import { type Kept, pullRecords, WINDOW_CHUNK_BYTES } from './record-stream.js';
import { type CallFact, newThread, rawResultOf, SessionFacts, SPAN_PLACES, type ThreadFacts } from './session-facts.js';
import { subagentHeadOf } from './subagents.js';
import { isWarmup } from './thread-tally.js';

/** What it holds after its calls. */
export type SessionTail = Pick<Session, 'orphanResults' | 'issues' | 'usageByModel' | 'leafUuid' | 'counts'>;

/**
 * A session read for writing in bounded memory: everything `loadSession` makes, in the same order, with the events
 * and calls read again from the files as they are taken instead of held (so a session of any size is written in
 * memory that does not grow with it). `loadSession(group)` equals the head, then `events()`, the subagents each
 * with `events(key)`, `calls()`, then `tail()`.
 */
export interface SessionStream {
  readonly head: SessionHead;
  readonly subagents: readonly Omit<Subagent, 'events'>[];
  /** The main thread's events (no key) or a subagent's. */
  events(key?: string): AsyncGenerator<TimelineEvent, void>;
  calls(): AsyncGenerator<ToolCall, void>;
  /** The tail's fields known before the calls are read (all but its counts). */
  readonly known: Omit<SessionTail, 'counts'>;
  /** The fields after the calls (reads the calls again when `calls()` was not read to its end). */
  tail(): Promise<SessionTail>;
}

/**
 * Sessions of fewer transcript bytes are written from `loadSession` (one read, and a heap of a few times this at
 * most); larger ones from `openSessionStream` (a read for the facts, one for redaction, one or two to write), in
 * memory that does not grow with them.
 */
export const STREAM_FROM_BYTES = 32 * 1024 * 1024;

/** A result this far (bytes) or more after its call, or before it, or in another file, is read ahead and held. */
const NEAR_BYTES = 4 * 1024 * 1024;

/** Read a session's files once for its facts, and open it for writing: see `SessionStream`. */
export async function openSessionStream(group: SessionFiles, options: LoadSessionOptions = {}): Promise<SessionStream> {
  const adapter = adapterForFile(group.main ?? group.subagents[0] ?? { agent: agentIds[0] });
  const facts = new SessionFacts(adapter, filedAgents(group.subagents));
  const sources: DiscoveredFile[] = [];
  const files: SessionFileInfo[] = [];
  const read = async (file: DiscoveredFile, thread?: ThreadFacts) => {
    const index = sources.length;
    sources.push(file);
    try {
      await facts.read(file, index, options.open, thread);
    } catch (error) {
      facts.issues.push({ code: 'unreadable_file', file: file.path, line: 0, message: messageOf(error) });
    }
  };
  if (group.main) {
    files.push({ path: group.main.path, role: 'main', agentId: undefined });
    await read(group.main);
  } else {
    facts.issues.push(missingMainIssue(adapter, group.sessionId, group.projectDir, group.subagents.length));
    sources.push({ ...(group.subagents[0] as DiscoveredFile), path: '' });
  }
  for (const sub of group.subagents) {
    files.push({ path: sub.path, role: 'subagent', agentId: sub.agentId ? createSubagentId(sub.agentId) : undefined });
    const thread = newThread(sub.agentId ?? sub.path, sub.agentId, sources.length);
    facts.threads.push(thread);
    await read(sub, thread);
    thread.meta = sub.metaPath ? await readMeta(sub.metaPath, facts.issues, options.open) : undefined;
  }
  facts.threads.push(...facts.copyThreads.values());
  /** The subagent's record a record holds (read again where `facts.copiesAt` says it is its thread's). */
  const copyOf = (record: TranscriptRecord) =>
    record.kind === 'progress' ? adapter.embeddedRecordOf?.(record) : undefined;
  const pathOf = (index: number) => sources[index]?.path;

  // Subagents linked to the calls that started them, as loadSession links them.
  const callFacts = [...facts.calls.values()];
  const agentCalls = callFacts.filter(
    (c) => facts.startsSubagent(c.raw.name) || facts.results.get(c.raw.id)?.namesAgent === true,
  );
  const { callToThread, linkedBy } = matchSubagents(agentCalls, facts.threads, {
    callId: (call) => call.raw.id,
    agentIdOf: (call) => facts.results.get(call.raw.id)?.agentId,
    promptOfCall: (call) => call.prompt,
    callMs: (call) => timestampMs(call.raw.timestamp),
    threadKey: (thread) => thread.key,
    threadAgentId: (thread) => thread.agentId,
    promptOfThread: (thread) => thread.tally.firstPrompt?.text,
    threadMs: (thread) => timestampMs(thread.tally.firstPrompt?.stamp),
  });
  const parentOf = new Map([...callToThread].map(([callId, key]) => [key, callId]));

  // Results held in memory: those far from their call, those without a call, and those of calls that started a
  // subagent (their typed result names its type); every other one is read where its call is written.
  const held = new Map<string, RawResult>();
  const inputs = new Map<string, unknown>();
  const far = new Set<string>();
  for (const [id, r] of facts.results) {
    const c = facts.calls.get(id);
    if (!c || c.file !== r.file || r.offset <= c.offset || r.offset - c.offset > NEAR_BYTES) far.add(id);
  }
  for (const callId of parentOf.values()) {
    far.add(callId);
    inputs.set(callId, undefined);
  }
  if (far.size > 0) {
    for (let index = 0; index < sources.length; index++) {
      for await (const { record, ordinal } of keptRecords(index)) {
        if (record.kind === 'user' && typeof record.content !== 'string') {
          const count = record.content.filter((b) => b.kind === 'tool-result').length;
          for (const block of record.content) {
            if (block.kind !== 'tool-result' || !far.has(block.toolUseId)) continue;
            const r = facts.results.get(block.toolUseId);
            if (r?.file === index && r.ordinal === ordinal && !held.has(block.toolUseId)) {
              held.set(block.toolUseId, rawResultOf(record, block, count));
            }
          }
        } else if (record.kind === 'assistant') {
          for (const block of record.content) {
            const c = block.kind === 'tool-use' && inputs.has(block.id) ? facts.calls.get(block.id) : undefined;
            if (block.kind === 'tool-use' && c?.file === index && c.ordinal === ordinal)
              inputs.set(block.id, block.input);
          }
        }
      }
    }
  }

  const resultOf = (id: string, near: ReadonlyMap<string, RawResult>): RawResult | undefined =>
    held.get(id) ?? near.get(id) ?? options.resultsElsewhere?.get(id);
  const buildCall = (fact: CallFact, input: unknown, near: ReadonlyMap<string, RawResult>): ToolCall =>
    toolCallOf(adapter, { ...fact.raw, input }, resultOf(fact.raw.id, near), {
      live: options.live,
      movedOn: facts.movedOn.has(fact.raw.id),
      subagentKey: callToThread.get(fact.raw.id),
      preToolHook: facts.hooked.has(fact.raw.id),
      taskSubject:
        facts.tasks.size === 0
          ? undefined
          : facts.tasks.subjectOf(adapter.kindOfTool?.(adapter.canonicalToolName(fact.raw.name)), input),
    });
  /** Whether a call's result is read with it (in its file, a little after it). */
  const nearResult = (fact: CallFact): boolean => facts.results.has(fact.raw.id) && !far.has(fact.raw.id);

  /**
   * A file's kept records, each subagent's record that is its thread's (`copy`) right after the record holding it;
   * from a line on (`from`) when its lines stand alone, else from its start. A read for a part of the file (from a
   * line after the first, or `through` a record before the last) reads in small chunks.
   */
  async function* keptRecords(index: number, from?: ThreadFacts['from'], through?: number): AsyncGenerator<Kept, void> {
    const source = sources[index];
    const dropped = facts.dropped[index];
    const count = facts.recordsOfFile[index] ?? 0;
    if (!source || !dropped || count === 0) return;
    const start = adapter.capabilities.linesStandAlone ? from : undefined;
    const part = (start?.offset ?? 0) > 0 || (through ?? count) < count - 1;
    let ordinal = (start?.ordinal ?? 0) - 1;
    for await (const event of pullRecords(source, options.open, start, part ? WINDOW_CHUNK_BYTES : undefined)) {
      if (event.kind !== 'record') continue;
      ordinal += 1;
      if (ordinal >= count) break;
      if (dropped.has(ordinal)) continue;
      yield { record: event.record, ordinal };
      const copy = facts.copiesAt[index]?.has(ordinal) && copyOf(event.record);
      if (copy) yield { record: copy.record, ordinal, copyOf: copy.agentId };
    }
  }

  /** Take the near results a walk waits for from a record. */
  const takeResults = (
    record: TranscriptRecord,
    index: number,
    ordinal: number,
    near: Map<string, RawResult>,
    wanted: ReadonlySet<string>,
  ) => {
    if (record.kind !== 'user' || typeof record.content === 'string' || wanted.size === 0) return;
    const count = record.content.filter((b) => b.kind === 'tool-result').length;
    for (const block of record.content) {
      if (block.kind !== 'tool-result' || !wanted.has(block.toolUseId) || near.has(block.toolUseId)) continue;
      const r = facts.results.get(block.toolUseId);
      if (r?.file === index && r.ordinal === ordinal) near.set(block.toolUseId, rawResultOf(record, block, count));
    }
  };

  const threadOf = (key: string | undefined): ThreadFacts | undefined =>
    key === undefined ? facts.main : facts.threads.find((t) => t.key === key);

  async function* events(key?: string): AsyncGenerator<TimelineEvent, void> {
    const thread = threadOf(key);
    // A thread's records are read from its first one's line to its last one and the results its calls wait for.
    if (!thread?.from) return;
    const index = thread.file;
    const sidechainRun = key?.startsWith('sidechain:') === true && index === 0 && group.main !== undefined;
    const near = new Map<string, RawResult>();
    const wanted = new Set<string>();
    const stubs = new Map<object, { fact: CallFact; input: unknown }>();
    const assembler = new ThreadAssembler((block, record) => {
      const fact = facts.calls.get(block.id);
      if (!fact || fact.raw.loc.file !== record.loc.file || fact.raw.loc.line !== record.loc.line) return undefined;
      const stub = { kind: 'tool-call', id: block.id } as unknown as ToolCall;
      stubs.set(stub, { fact, input: (block as { input?: unknown }).input });
      if (nearResult(fact)) wanted.add(block.id);
      return stub;
    });
    let at = -1;
    const ready = (event: TimelineEvent): boolean => {
      if (event.kind !== 'assistant') return true;
      if ((thread.lastOfMessage.get(event.messageId) ?? -1) > at) return false;
      return event.items.every((item) => {
        const stub = stubs.get(item);
        return !stub || !wanted.has(stub.fact.raw.id) || near.has(stub.fact.raw.id);
      });
    };
    const finish = (event: TimelineEvent): TimelineEvent => {
      if (event.kind === 'assistant') {
        const items = event.items as unknown[];
        for (let i = 0; i < items.length; i++) {
          const stub = stubs.get(items[i] as object);
          if (!stub) continue;
          stubs.delete(items[i] as object);
          const call = buildCall(stub.fact, stub.input, near);
          items[i] = call;
          fromEvents.set(call.id, headerCallOf(call));
          wanted.delete(stub.fact.raw.id);
          near.delete(stub.fact.raw.id);
        }
      }
      return event;
    };
    const copies = key !== undefined && facts.copyThreads.has(key);
    // Its file's span, then those of the other files its records are copied into (a copy thread's), in that order.
    const spans = [{ file: index, from: thread.from, through: thread.through }, ...thread.more];
    for (const [s, span] of spans.entries()) {
      for await (const { record, ordinal, copyOf } of keptRecords(span.file, span.from, span.through)) {
        if (ordinal > span.through && wanted.size === 0) break;
        // A record holding a subagent's record that follows it is, for a response's last record, before that one.
        at =
          s * SPAN_PLACES + (copyOf === undefined && facts.copiesAt[span.file]?.has(ordinal) ? ordinal - 1 : ordinal);
        takeResults(record, span.file, ordinal, near, wanted);
        const mine =
          copies || copyOf !== undefined
            ? copyOf === key
            : sidechainRun
              ? facts.runOfOrdinal.get(ordinal) === key
              : key !== undefined || !('isSidechain' in record) || !record.isSidechain;
        if (mine) assembler.add(record);
        let n = 0;
        while (n < assembler.events.length && ready(assembler.events[n] as TimelineEvent)) n++;
        if (n > 0) {
          const out = assembler.events.slice(0, n);
          assembler.drop(n);
          for (const event of out) yield finish(event);
        }
      }
    }
    const rest = assembler.events.slice();
    assembler.drop(rest.length);
    for (const event of rest) yield finish(event);
  }

  const headerCalls: HeaderCall[] = [];
  /** The calls met in events (each call is in one), so the counts need no read of `calls()` once all are met. */
  const fromEvents = new Map<string, HeaderCall>();
  let counted = false;
  async function* calls(): AsyncGenerator<ToolCall, void> {
    const mine: HeaderCall[] = [];
    for (let index = 0; index < sources.length; index++) {
      const near = new Map<string, RawResult>();
      const wanted = new Set<string>();
      const queue: { fact: CallFact; input: unknown }[] = [];
      const drain = function* (all: boolean) {
        while (queue.length > 0) {
          const head = queue[0] as { fact: CallFact; input: unknown };
          const id = head.fact.raw.id;
          if (!all && wanted.has(id) && !near.has(id)) return;
          queue.shift();
          const call = buildCall(head.fact, head.input, near);
          wanted.delete(id);
          near.delete(id);
          mine.push(headerCallOf(call));
          yield call;
        }
      };
      for await (const { record, ordinal } of keptRecords(index)) {
        takeResults(record, index, ordinal, near, wanted);
        if (record.kind === 'assistant') {
          for (const block of record.content) {
            if (block.kind !== 'tool-use') continue;
            const fact = facts.calls.get(block.id);
            if (fact?.file !== index || fact.ordinal !== ordinal || queue.some((q) => q.fact === fact)) continue;
            if (nearResult(fact)) wanted.add(block.id);
            queue.push({ fact, input: block.input });
          }
        }
        yield* drain(false);
      }
      yield* drain(true);
    }
    headerCalls.splice(0, headerCalls.length, ...mine);
    counted = true;
  }

  const typedOrphans: ToolResult[] = [];
  const orphanIssues: ParseIssue[] = [];
  for (const [id, r] of facts.results) {
    if (facts.calls.has(id)) continue;
    const raw = held.get(id);
    const file = pathOf(r.file) ?? '';
    orphanIssues.push({
      code: 'orphan_result',
      file: raw?.loc.file ?? file,
      line: raw?.loc.line ?? 0,
      message: `result for tool_use ${id} has no call in this session`,
    });
    if (raw) typedOrphans.push(adapter.typeResult(orphanCall(raw), raw));
  }

  // The client's cache warm-ups are not subagents (`isWarmup`): counted apart, their usage kept in the session's.
  const warmups = facts.threads.filter((t) =>
    isWarmup({ started: parentOf.has(t.key), tally: t.tally, toolCalls: t.toolCalls }),
  );
  const subagents: Omit<Subagent, 'events'>[] = facts.threads
    .filter((t) => !warmups.includes(t))
    .map((thread) => {
      const parentCallId = parentOf.get(thread.key);
      const fact = parentCallId ? facts.calls.get(parentCallId) : undefined;
      return subagentHeadOf({
        thread,
        file: pathOf(thread.file),
        parentCall: fact ? buildCall(fact, inputs.get(fact.raw.id), new Map()) : undefined,
        parentCallId,
        linkedBy: linkedBy.get(thread.key),
        prompt: thread.tally.firstPrompt?.text,
        startedAt: thread.first.at,
        endedAt: thread.last.at,
      });
    });

  const summary = facts.summary.finish((uuid) => facts.copies.holds(uuid));
  const head = sessionHeadOf(group, adapter.id, files, summary);

  const known: Omit<SessionTail, 'counts'> = {
    orphanResults: typedOrphans,
    issues: [...facts.issues, ...facts.pairIssues, ...orphanIssues],
    usageByModel: facts.usageByModel(),
    leafUuid: facts.lastPromptLeaf ?? facts.newestMain?.uuid,
  };
  return {
    head,
    subagents,
    events,
    calls,
    known,
    async tail() {
      const met = !counted && fromEvents.size === facts.calls.size;
      if (!counted && !met) for await (const _ of calls());
      const count = headerCountsOf({
        calls: met ? [...fromEvents.values()] : headerCalls,
        main: undefined,
        threads: [],
      });
      const assistant = [facts.main, ...facts.threads].reduce((n, t) => n + t.tally.responses, 0);
      return {
        ...known,
        counts: {
          records: facts.recordCount,
          duplicateRecords: facts.duplicateRecords,
          unknownRecords: facts.unknownRecords,
          prompts: summary.prompts,
          assistantMessages: assistant,
          toolCalls: count.toolCalls,
          errors: count.errors,
          expectedErrors: count.expectedErrors,
          failedRequests: summary.failedRequests,
          retriedRequests: summary.retriedRequests,
          warmups: warmups.length,
        },
      };
    },
  };
}
