import { adapterForFile } from '../agents/adapters.js';
import { messageOf } from '../errors.js';
import type { DiscoveredFile, SessionFiles } from '../io/discover.js';
import type { OpenBytes } from '../io/read-lines.js';
import { agentIds } from '../model/agent.js';
import {
  createSessionId,
  createSubagentId,
  type IsoTimestamp,
  outputTime,
  type RecordUuid,
  timestampMs,
} from '../model/ids.js';
import type { ParseIssue } from '../model/issue.js';
import type { RawCall, RawResult } from '../model/raw.js';
import type { ChainRecord, TranscriptRecord } from '../model/record.js';
import type { Session, SessionFileInfo, Subagent, UsageTotals } from '../model/session.js';
import type { ToolCall, ToolResult } from '../model/tool-call.js';
import { dedupeResponses, type UsageRecord } from '../usage/dedupe.js';
import { assembleThread } from './assemble.js';
import { orphanCall, toolCallOf } from './build-call.js';
import { hiddenReasonOf } from './classify-user.js';
import { CopyFilter, signatureOf } from './copies.js';
import { EmbeddedThreads, filedAgents } from './embedded.js';
import { extremesBy, headerCallOf, headerCountsOf } from './header.js';
import { preToolHookCallOf } from './hooked-calls.js';
import { missingMainIssue } from './missing-main.js';
import { pairRecords } from './pair.js';
import { readMeta } from './read-meta.js';
import {
  isWarmupThread,
  linkSubagents,
  promptOf,
  type SubagentThread,
  splitSidechains,
  subagentHeadOf,
} from './subagents.js';
import { placeOf, recordFactOf, SessionSummary, type SummaryOf, threadTitleFactOf, titleFactOf } from './summary.js';
import { withTaskSubjects } from './task-subjects.js';
import { ThreadTally } from './thread-tally.js';

export interface LoadSessionOptions {
  /**
   * Whether the session may still be written to. Calls without a result at the end of a live session are
   * `pending`; otherwise they are `unanswered`. Default false.
   */
  readonly live?: boolean;
  /** Where the files' bytes come from (default: the files on disk), e.g. an archive of files that are gone. */
  readonly open?: OpenBytes;
  /**
   * Results found outside this session's files (say, by an index over the whole home), by tool_use id: a call is
   * paired when any result anywhere carries its id. Used only for calls without a result in the session.
   */
  readonly resultsElsewhere?: ReadonlyMap<string, RawResult>;
}

/**
 * Read, decode, dedupe, pair and assemble one session from its files (the main file and its subagent files).
 * Never throws on bad data; an unreadable file is an issue.
 */
export async function loadSession(group: SessionFiles, options: LoadSessionOptions = {}): Promise<Session> {
  const issues: ParseIssue[] = [];
  const files: SessionFileInfo[] = [];
  const copies = new CopyFilter();
  let duplicateRecords = 0;
  let recordCount = 0;

  // Every file of a session is one agent's: its adapter reads the files and types the results.
  const adapter = adapterForFile(group.main ?? group.subagents[0] ?? { agent: agentIds[0] });
  const readDeduped = async (file: DiscoveredFile): Promise<TranscriptRecord[]> => {
    const path = file.path;
    try {
      const read = { records: [] as TranscriptRecord[] };
      await adapterForFile(file).streamRecords(
        file,
        (event) => {
          if (event.kind === 'record') read.records.push(event.record);
          else issues.push(event.issue);
        },
        options.open ? { open: options.open } : {},
      );
      const kept: TranscriptRecord[] = [];
      // Resume and fork copies are dropped (`CopyFilter`).
      for (const record of read.records) {
        recordCount += 1;
        if ('uuid' in record && copies.isCopy(record.uuid, signatureOf(record))) {
          duplicateRecords += 1;
          continue;
        }
        kept.push(record);
      }
      copies.endFile();
      return kept;
    } catch (error) {
      issues.push({ code: 'unreadable_file', file: path, line: 0, message: messageOf(error) });
      return [];
    }
  };

  let mainRecords: TranscriptRecord[] = [];
  if (group.main) {
    files.push({ path: group.main.path, role: 'main', agentId: undefined });
    mainRecords = await readDeduped(group.main);
  }
  if (!group.main) {
    issues.push(missingMainIssue(adapter, group.sessionId, group.projectDir, group.subagents.length));
  }
  const mainThread = mainRecords.filter((r) => !('isSidechain' in r) || !r.isSidechain);
  const runs: SubagentThread[] = group.main ? splitSidechains(mainRecords, group.main.path) : [];
  // Subagent records copied into a file, the thread of a subagent whose file is not here (`EmbeddedThreads`).
  const embedded = new EmbeddedThreads(adapter, filedAgents(group.subagents));
  const held = new Map<TranscriptRecord, TranscriptRecord>();
  const takeEmbedded = (records: readonly TranscriptRecord[]) => {
    for (const record of records) {
      const copy = embedded.take(record);
      if (copy !== undefined) held.set(record, copy.record);
    }
  };
  takeEmbedded(mainRecords);
  const threads: SubagentThread[] = [...runs];
  for (const sub of group.subagents) {
    files.push({ path: sub.path, role: 'subagent', agentId: sub.agentId ? createSubagentId(sub.agentId) : undefined });
    const records = await readDeduped(sub);
    takeEmbedded(records);
    threads.push({
      key: sub.agentId ?? sub.path,
      agentId: sub.agentId,
      file: sub.path,
      records,
      meta: sub.metaPath ? await readMeta(sub.metaPath, issues, options.open) : undefined,
    });
  }
  for (const agentId of embedded.agents) {
    const records = [...held.values()].filter((r) => 'agentId' in r && r.agentId === agentId);
    threads.push({ key: agentId, agentId, file: records[0]?.loc.file, records, meta: undefined });
  }
  // Every record once, in the order the files hold them (a copy right after the record holding it, as streamed).
  const withCopies = (records: readonly TranscriptRecord[]) =>
    records.flatMap((r) => [r, ...(held.has(r) ? [held.get(r) as TranscriptRecord] : [])]);
  const fileThreads = threads.slice(runs.length, runs.length + group.subagents.length);
  const allRecords = [...withCopies(mainRecords), ...fileThreads.flatMap((t) => withCopies(t.records))];

  // Pairing: one map, built once, over every file of the session.
  const { calls: rawCalls, results } = pairRecords(allRecords, issues);
  const startsSubagent = (call: RawCall) => adapter.kindOfTool?.(adapter.canonicalToolName(call.name)) === 'agent';
  const { callToThread, linkedBy } = linkSubagents([...rawCalls.values()], results, threads, startsSubagent);

  const movedOn = conversationMovedOn([mainThread, ...threads.map((t) => t.records)]);
  const hooked = new Set(allRecords.map(preToolHookCallOf).filter((id) => id !== undefined));
  const built: ToolCall[] = [];
  for (const raw of rawCalls.values()) {
    const rawResult = results.get(raw.id) ?? options.resultsElsewhere?.get(raw.id);
    built.push(
      toolCallOf(adapter, raw, rawResult, {
        live: options.live,
        movedOn: movedOn.has(raw.id),
        subagentKey: callToThread.get(raw.id),
        preToolHook: hooked.has(raw.id),
      }),
    );
  }
  const calls = withTaskSubjects(built);
  const callsById = new Map(calls.map((call) => [call.id as string, call]));
  const orphanResults: ToolResult[] = [];
  for (const raw of results.values()) {
    if (rawCalls.has(raw.toolUseId)) continue;
    issues.push({
      code: 'orphan_result',
      file: raw.loc.file,
      line: raw.loc.line,
      message: `result for tool_use ${raw.toolUseId} has no call in this session`,
    });
    orphanResults.push(adapter.typeResult(orphanCall(raw), raw));
  }

  const callToThreadReverse = new Map([...callToThread].map(([callId, key]) => [key, callId]));
  // The client's cache warm-ups are not subagents: counted apart, their usage kept in the session's.
  const warmups = threads.filter((thread) => isWarmupThread(thread, callToThreadReverse.has(thread.key)));
  const kept = threads.filter((thread) => !warmups.includes(thread));
  const subagents: Subagent[] = kept.map((thread) => {
    const stamps = extremesBy(
      thread.records.map((r) => r.timestamp).filter((t): t is IsoTimestamp => t !== undefined),
      timestampMs,
    );
    const parentCallId = callToThreadReverse.get(thread.key);
    const { startedAt, endedAt, ...head } = subagentHeadOf({
      thread,
      file: thread.file,
      parentCall: parentCallId ? callsById.get(parentCallId) : undefined,
      parentCallId,
      linkedBy: linkedBy.get(thread.key),
      prompt: promptOf(thread),
      startedAt: stamps.first,
      endedAt: stamps.last,
    });
    return { ...head, events: assembleThread(thread.records, callsById), startedAt, endedAt };
  });

  const events = assembleThread(mainThread, callsById);
  const summary = summaryOf(mainRecords, fileThreads, held, copies);
  // The header's call counts, by the rules the index's header follows too.
  const counted = headerCountsOf({ calls: calls.map(headerCallOf), main: undefined, threads: [] });
  return {
    ...sessionHeadOf(group, adapter.id, files, summary),
    events,
    subagents,
    calls,
    orphanResults,
    issues,
    usageByModel: usageByModel(allRecords),
    leafUuid: leafOf(mainRecords),
    counts: {
      records: recordCount,
      duplicateRecords,
      unknownRecords: allRecords.filter((r) => r.kind === 'unknown').length,
      prompts: summary.prompts,
      assistantMessages: [mainThread, ...threads.map((t) => t.records)].reduce((n, r) => n + tallyOf(r).responses, 0),
      toolCalls: counted.toolCalls,
      errors: counted.errors,
      expectedErrors: counted.expectedErrors,
      failedRequests: summary.failedRequests,
      retriedRequests: summary.retriedRequests,
      warmups: warmups.length,
    },
  };
}

/** Ids of calls after which the conversation went on (a later response or a later prompt in the same thread). */
function conversationMovedOn(threads: readonly (readonly TranscriptRecord[])[]): Set<string> {
  const moved = new Set<string>();
  for (const records of threads) {
    let open: { ids: string[]; messageId: string | undefined }[] = [];
    for (const record of records) {
      if (record.kind === 'assistant') {
        const ids = record.content.flatMap((b) => (b.kind === 'tool-use' ? [b.id as string] : []));
        const laterResponse = open.filter((o) => o.messageId !== record.messageId);
        for (const o of laterResponse) for (const id of o.ids) moved.add(id);
        open = open.filter((o) => o.messageId === record.messageId);
        if (ids.length > 0) open.push({ ids, messageId: record.messageId });
      } else if (record.kind === 'user' && hiddenReasonOf(record) === undefined) {
        for (const o of open) for (const id of o.ids) moved.add(id);
        open = [];
      }
    }
  }
  return moved;
}

/** What a session's JSON holds before its events: every field of `Session` up to `gitBranch`. */
export type SessionHead = Pick<
  Session,
  | 'id'
  | 'agent'
  | 'files'
  | 'projectPath'
  | 'projectDir'
  | 'title'
  | 'titleSource'
  | 'startedAt'
  | 'endedAt'
  | 'versions'
  | 'models'
  | 'gitBranch'
>;

/** A session's head from its files and summary: the one rule `loadSession` and `openSessionStream` write. */
export function sessionHeadOf(
  group: SessionFiles,
  agent: Session['agent'],
  files: SessionFileInfo[],
  summary: SummaryOf<IsoTimestamp | undefined>,
): SessionHead {
  return {
    id: createSessionId(group.sessionId),
    agent,
    files,
    projectPath: summary.projectPath,
    projectDir: group.projectDir,
    title: summary.title,
    titleSource: summary.titleSource,
    startedAt: outputTime(summary.startedMs, summary.startedAt) as IsoTimestamp | undefined,
    endedAt: outputTime(summary.endedMs, summary.endedAt) as IsoTimestamp | undefined,
    versions: [...summary.versions],
    models: [...summary.models],
    gitBranch: summary.gitBranch,
  };
}

/**
 * The session's summary by core's one rule (`SessionSummary`): the main file's records (the main thread and the
 * sidechain runs in it), then each subagent file's (`files`), copies already dropped; a subagent's record copied into a file
 * (`held`, by the record holding it) right after its holder, as the stream meets it.
 */
function summaryOf(
  mainRecords: readonly TranscriptRecord[],
  files: readonly SubagentThread[],
  held: ReadonlyMap<TranscriptRecord, TranscriptRecord>,
  copies: CopyFilter,
): SummaryOf<IsoTimestamp | undefined> {
  const summary = new SessionSummary<IsoTimestamp | undefined>();
  const addSubagent = (record: TranscriptRecord, key: string) => {
    summary.add(recordFactOf(record, 'subagent', key));
    const title = threadTitleFactOf(record);
    if (title !== undefined) summary.addThreadPrompt(title.title, title.ms);
  };
  const addHeld = (record: TranscriptRecord, key: string) => {
    const copy = held.get(record);
    if (copy !== undefined) addSubagent(copy, `${key}:copy`);
  };
  let titled = false;
  mainRecords.forEach((record, i) => {
    summary.add(recordFactOf(record, placeOf(record, true), `m${i}`));
    addHeld(record, `m${i}`);
    const title = titleFactOf(record, !titled);
    if (title === undefined) return;
    summary.addTitle(title);
    if (title.source === 'first-prompt') titled = true;
  });
  for (const thread of files) {
    thread.records.forEach((record, i) => {
      addSubagent(record, `${thread.key}:${i}`);
      addHeld(record, `${thread.key}:${i}`);
    });
  }
  return summary.finish((uuid) => copies.holds(uuid));
}

/**
 * Usage per model: each response once, as every figure of usage counts it (`dedupeResponses`: by message id, a second
 * request of one id its own response, each field's largest value over its block records).
 */
export function usageByModel(records: Iterable<TranscriptRecord>): Record<string, UsageTotals> {
  const totals: Record<string, UsageTotals> = {};
  for (const response of dedupeResponses(usageRecordsOf(records))) {
    const t = totals[response.model] ?? {
      responses: 0,
      inputTokens: 0,
      outputTokens: 0,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 0,
      reasoningOutputTokens: 0,
    };
    const usage = response.tokens;
    totals[response.model] = {
      responses: t.responses + 1,
      inputTokens: t.inputTokens + usage.inputTokens,
      outputTokens: t.outputTokens + usage.outputTokens,
      cacheCreationInputTokens: t.cacheCreationInputTokens + usage.cacheCreationInputTokens,
      cacheReadInputTokens: t.cacheReadInputTokens + usage.cacheReadInputTokens,
      reasoningOutputTokens: t.reasoningOutputTokens + usage.reasoningOutputTokens,
    };
  }
  return totals;
}

/** The assistant records with usage, as the usage rules read them. */
function* usageRecordsOf(records: Iterable<TranscriptRecord>): Generator<UsageRecord, void, undefined> {
  for (const record of records) {
    if (record.kind !== 'assistant' || !record.usage || record.model === undefined) continue;
    yield {
      messageId: record.messageId,
      requestId: record.requestId,
      model: record.model,
      timestampMs: timestampMs(record.timestamp),
      isSynthetic: record.isSynthetic,
      tokens: { ...record.usage, reasoningOutputTokens: record.usage.reasoningOutputTokens ?? 0 },
      turnsUnrecorded: record.usage.turnsUnrecorded,
      context: undefined,
    };
  }
}

function leafOf(records: readonly TranscriptRecord[]): RecordUuid | undefined {
  let leaf: RecordUuid | undefined;
  for (const record of records) if (record.kind === 'last-prompt' && record.leafUuid) leaf = record.leafUuid;
  if (leaf) return leaf;
  let newest: ChainRecord | undefined;
  for (const record of records) {
    if (!('isSidechain' in record) || record.isSidechain) continue;
    if (!newest || (timestampMs(record.timestamp) ?? 0) >= (timestampMs(newest.timestamp) ?? 0)) newest = record;
  }
  return newest?.uuid;
}

/** A thread's counts by the header's rule (`ThreadTally`, which the index's header follows too). */
function tallyOf(records: readonly TranscriptRecord[]): ThreadTally<undefined> {
  const tally = new ThreadTally<undefined>();
  for (const record of records) tally.addRecord(record, undefined);
  return tally;
}
