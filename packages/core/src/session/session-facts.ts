import type { AgentAdapter } from '../agents/adapter.js';
import { isRecord, str } from '../internal/guards.js';
import type { DiscoveredFile } from '../io/discover.js';
import type { OpenBytes } from '../io/read-lines.js';
import { type IsoTimestamp, type RecordUuid, timestampMs } from '../model/ids.js';
import type { ParseIssue } from '../model/issue.js';
import type { RawResult } from '../model/raw.js';
import type { ChainRecord, TranscriptRecord, UserRecord } from '../model/record.js';
import type { UsageTotals } from '../model/session.js';
import type { RawCallWithAgent } from './build-call.js';
import { hiddenReasonOf } from './classify-user.js';
import { CopyFilter, signatureOf } from './copies.js';
import { EmbeddedThreads } from './embedded.js';
import { preToolHookCallOf } from './hooked-calls.js';
import { usageByModel } from './load-session.js';
import { reusedCallId } from './pair.js';
import { pullRecords } from './record-stream.js';
import { agentIdOfResult, SidechainRuns, sidechainKey } from './subagents.js';
import { placeOf, recordFactOf, SessionSummary, threadTitleFactOf, titleFactOf } from './summary.js';
import { TaskSubjects, taskKindOf } from './task-subjects.js';
import { ThreadTally } from './thread-tally.js';

/** Where a record is: its file (index in the session's files) and its place among that file's record events. */
export interface At {
  readonly file: number;
  readonly ordinal: number;
  readonly offset: number;
}

/**
 * Where a read of a file that starts at a line gives its records: the line's offset and number, and the ordinal of
 * its first record (a line may hold two glued records).
 */
export interface LineStart {
  readonly offset: number;
  readonly line: number;
  readonly ordinal: number;
}

const FILE_START: LineStart = { offset: 0, line: 1, ordinal: 0 };

/** A call as the first pass saw it (its input is read again where it is written). */
export interface CallFact extends At {
  readonly raw: Omit<RawCallWithAgent, 'input'>;
  readonly prompt: string | undefined;
  readonly subagentType: string | undefined;
}

export interface ResultFact extends At {
  readonly namesAgent: boolean;
  readonly agentId: string | undefined;
}

/** A thread (the main one, a sidechain run, a subagent file) as the first pass saw it. */
export interface ThreadFacts {
  readonly key: string;
  readonly agentId: string | undefined;
  readonly file: number;
  /** Each response's last record (its key: message id, else uuid), by its place (`SPAN_PLACES`). */
  readonly lastOfMessage: Map<string, number>;
  /** Its responses and first prompt by the header's rule (`ThreadTally`). */
  readonly tally: ThreadTally<IsoTimestamp | undefined>;
  /** Its tool-use blocks (`isWarmup` reads it). */
  toolCalls: number;
  first: { ms: number; at: IsoTimestamp | undefined };
  last: { ms: number; at: IsoTimestamp | undefined };
  meta: Readonly<Record<string, unknown>> | undefined;
  open: { ids: string[]; messageId: string | undefined }[];
  /** The line of its first record (none: it has no record); a read of its file for it starts there. */
  from: LineStart | undefined;
  /** The ordinal of its last record: a read for it ends there. */
  through: number;
  /**
   * Where else its records are, after its file, in the order the files are read: a subagent without a file of its own
   * whose records are copied into several (`EmbeddedThreads`). A read for it reads each of these spans in turn.
   */
  readonly more: ThreadSpan[];
}

/** A part of a file a thread's records are in: from the line of its first record through the ordinal of its last. */
export interface ThreadSpan {
  readonly file: number;
  readonly from: LineStart;
  through: number;
}

/**
 * A record's place in its thread's reads, comparable across them: its ordinal in the thread's file, else past every
 * ordinal of the spans before its own (`ThreadFacts.more`).
 */
export const SPAN_PLACES = 2 ** 32;

/** Everything about a session but its events and calls: what one read of its files, dropping records, finds. */
export class SessionFacts {
  readonly issues: ParseIssue[] = [];
  readonly pairIssues: ParseIssue[] = [];
  readonly dropped: Set<number>[] = [];
  /** Record events of each file in this read (a file appended to later is read no further). */
  readonly recordsOfFile: number[] = [];
  /** Resume and fork copies, dropped as they are read. */
  readonly copies = new CopyFilter();
  readonly calls = new Map<string, CallFact>();
  readonly results = new Map<string, ResultFact>();
  readonly threads: ThreadFacts[] = [];
  /** Sidechain run of each sidechain record of the main file, by ordinal. */
  readonly runOfOrdinal = new Map<number, string>();
  readonly movedOn = new Set<string>();
  /** The subjects of the session's tasks, for the calls that name one by id (learned before any call is built). */
  readonly tasks = new TaskSubjects();
  /** The calls a PreToolUse hook ran on (`preToolHookCallOf`). */
  readonly hooked = new Set<string>();
  /** The kinds and inputs of the calls that may give a task's subject, until their result is read. */
  private readonly taskInputs = new Map<string, { readonly kind: string; readonly input: unknown }>();
  recordCount = 0;
  duplicateRecords = 0;
  unknownRecords = 0;
  /** Times, prompts, directory, versions, models, branch and title: core's one summary rule. */
  readonly summary = new SessionSummary<IsoTimestamp | undefined>();
  private titled = false;
  lastPromptLeaf: RecordUuid | undefined;
  newestMain: { uuid: RecordUuid; ms: number } | undefined;
  /** Every kept assistant record's usage, as `usageByModel` reads them (a few fields each, no content). */
  private readonly usage: TranscriptRecord[] = [];
  /** The line of the record being read. */
  private line = FILE_START;
  readonly main: ThreadFacts;
  private readonly runs = new SidechainRuns<ThreadFacts>();
  private readonly embedded: EmbeddedThreads;
  /** Per file, the records (by ordinal) holding a subagent's record that is its thread's (`EmbeddedThreads`). */
  readonly copiesAt: Set<number>[] = [];
  /** The threads of those subagents, by agent id, in the order met (listed after the files' threads). */
  readonly copyThreads = new Map<string, ThreadFacts>();

  /** `filed`: the agent ids of the session's subagent files. */
  constructor(
    private readonly adapter: AgentAdapter,
    filed: ReadonlySet<string>,
  ) {
    this.main = newThread('', undefined, 0);
    this.embedded = new EmbeddedThreads(adapter, filed);
  }

  usageByModel(): Record<string, UsageTotals> {
    return usageByModel(this.usage);
  }

  /** Read one file (index `file` of the session's files); `subagent` for a subagent file (a thread of its own). */
  async read(file: DiscoveredFile, index: number, open: OpenBytes | undefined, subagent?: ThreadFacts): Promise<void> {
    const dropped = new Set<number>();
    this.dropped[index] = dropped;
    const copies = new Set<number>();
    this.copiesAt[index] = copies;
    let ordinal = -1;
    this.line = FILE_START;
    for await (const event of pullRecords(file, open)) {
      if (event.kind === 'issue') {
        this.issues.push(event.issue);
        continue;
      }
      ordinal += 1;
      const record = event.record;
      const { offset, line } = record.loc;
      if (offset !== undefined && offset > this.line.offset) this.line = { offset, line, ordinal };
      this.recordCount += 1;
      if ('uuid' in record && this.copies.isCopy(record.uuid, signatureOf(record))) {
        this.duplicateRecords += 1;
        dropped.add(ordinal);
        continue;
      }
      const at = { file: index, ordinal, offset: record.loc.offset ?? 0 };
      this.take(record, at, subagent);
      const copy = this.embedded.take(record);
      if (copy === undefined) continue;
      copies.add(ordinal);
      const thread = this.copyThreads.get(copy.agentId) ?? newThread(copy.agentId, copy.agentId, index);
      this.copyThreads.set(copy.agentId, thread);
      this.take(copy.record, at, thread);
    }
    this.copies.endFile();
    this.recordsOfFile[index] = ordinal + 1;
  }

  private take(record: TranscriptRecord, at: At, subagent: ThreadFacts | undefined): void {
    const inMain = subagent === undefined;
    const sidechain = 'isSidechain' in record && record.isSidechain;
    if (record.kind === 'unknown') this.unknownRecords += 1;
    const hooked = preToolHookCallOf(record);
    if (hooked !== undefined) this.hooked.add(hooked);
    // Copies are dropped before: each kept record is a prompt of its own.
    this.summary.add(recordFactOf(record, placeOf(record, inMain), `${at.file}:${at.ordinal}`));
    if (record.kind === 'assistant' && !record.isSynthetic && record.usage && record.model !== undefined) {
      // what the usage rule reads of it (`usageByModel`): not its content
      this.usage.push({ ...record, content: [] });
    }
    if (inMain) this.takeMain(record, sidechain);
    else {
      const title = threadTitleFactOf(record);
      if (title !== undefined) this.summary.addThreadPrompt(title.title, title.ms);
    }
    const thread = subagent ?? (sidechain ? this.runOfRecord(record as ChainRecord) : this.main);
    if (thread) {
      if (sidechain && inMain) this.runOfOrdinal.set(at.ordinal, thread.key);
      this.takeThread(thread, record, at);
    }
    this.takeCalls(record, at);
  }

  private takeMain(record: TranscriptRecord, sidechain: boolean): void {
    const title = titleFactOf(record, !this.titled);
    if (title !== undefined) {
      this.summary.addTitle(title);
      if (title.source === 'first-prompt') this.titled = true;
    }
    if (record.kind === 'last-prompt' && record.leafUuid) this.lastPromptLeaf = record.leafUuid;
    if ('isSidechain' in record && !sidechain) {
      const ms = timestampMs(record.timestamp) ?? 0;
      if (!this.newestMain || ms >= this.newestMain.ms) this.newestMain = { uuid: record.uuid, ms };
    }
  }

  private runOfRecord(record: ChainRecord): ThreadFacts {
    const { run, started } = this.runs.take(record.uuid, record.parentUuid ?? undefined, () =>
      newThread(sidechainKey(record.uuid), record.agentId, 0),
    );
    if (started) this.threads.push(run);
    return run;
  }

  private takeThread(thread: ThreadFacts, record: TranscriptRecord, at: At): void {
    // A thread is read in its file, then in each other file its records are copied into (`more`), in that order.
    let place = at.ordinal;
    if (at.file === thread.file) {
      thread.from ??= this.line;
      thread.through = Math.max(thread.through, at.ordinal);
    } else {
      let span = thread.more.at(-1);
      if (span?.file !== at.file) {
        span = { file: at.file, from: this.line, through: at.ordinal };
        thread.more.push(span);
      }
      span.through = Math.max(span.through, at.ordinal);
      place += thread.more.length * SPAN_PLACES;
    }
    if (thread !== this.main) {
      const ms = timestampMs(record.timestamp);
      if (ms !== undefined && ms < thread.first.ms) thread.first = { ms, at: record.timestamp };
      if (ms !== undefined && ms > thread.last.ms) thread.last = { ms, at: record.timestamp };
    }
    thread.tally.addRecord(record, record.timestamp);
    // Which calls the conversation went on after (as loadSession's conversationMovedOn).
    if (record.kind === 'assistant') {
      thread.lastOfMessage.set(record.messageId ?? record.uuid, place);
      const ids = record.content.flatMap((b) => (b.kind === 'tool-use' ? [b.id as string] : []));
      for (const o of thread.open) if (o.messageId !== record.messageId) for (const id of o.ids) this.movedOn.add(id);
      thread.open = thread.open.filter((o) => o.messageId === record.messageId);
      if (ids.length > 0) thread.open.push({ ids, messageId: record.messageId });
      thread.toolCalls += ids.length;
    } else if (record.kind === 'user' && hiddenReasonOf(record) === undefined) {
      for (const o of thread.open) for (const id of o.ids) this.movedOn.add(id);
      thread.open = [];
    }
  }

  private takeCalls(record: TranscriptRecord, at: At): void {
    if (record.kind === 'assistant') {
      for (const block of record.content) {
        if (block.kind !== 'tool-use') continue;
        const seen = this.calls.get(block.id);
        if (seen !== undefined) {
          const reused = reusedCallId(seen.raw, block.id, block.name, record);
          if (reused !== undefined) this.pairIssues.push(reused);
          continue;
        }
        const input = isRecord(block.input) ? block.input : {};
        const taskKind = taskKindOf(this.adapter, block.name);
        if (taskKind !== undefined) {
          this.taskInputs.set(block.id, { kind: taskKind, input: block.input });
          this.tasks.take(taskKind, block.input, undefined);
        }
        this.calls.set(block.id, {
          ...at,
          raw: {
            id: block.id,
            name: block.name,
            timestamp: record.timestamp,
            loc: record.loc,
            messageId: record.messageId,
            agentId: record.isSidechain ? (record.agentId ?? 'sidechain') : undefined,
          },
          prompt: str(input.prompt),
          subagentType: str(input.subagent_type),
        });
      }
    } else if (record.kind === 'user' && typeof record.content !== 'string') {
      const resultCount = record.content.filter((b) => b.kind === 'tool-result').length;
      for (const block of record.content) {
        if (block.kind !== 'tool-result') continue;
        if (this.results.has(block.toolUseId)) {
          this.pairIssues.push({
            code: 'duplicate_result',
            file: record.loc.file,
            line: record.loc.line,
            message: `second result for tool_use ${block.toolUseId} ignored`,
          });
          continue;
        }
        const raw = rawResultOf(record, block, resultCount);
        const tur = raw.toolUseResult;
        const namesAgent = isRecord(tur) && str(tur.agentId) !== undefined;
        const call = this.calls.get(block.toolUseId);
        const task = call === undefined ? undefined : this.taskInputs.get(block.toolUseId);
        if (call !== undefined && task !== undefined) {
          this.taskInputs.delete(block.toolUseId);
          const typed = this.adapter.typeResult({ ...call.raw, input: task.input }, raw).typed;
          this.tasks.take(task.kind, task.input, typed);
        }
        const startsAgent = call === undefined || this.startsSubagent(call.raw.name) || namesAgent;
        this.results.set(block.toolUseId, {
          ...at,
          namesAgent,
          agentId: startsAgent ? agentIdOfResult(raw) : undefined,
        });
      }
    }
  }

  startsSubagent(name: string): boolean {
    return this.adapter.kindOfTool?.(this.adapter.canonicalToolName(name)) === 'agent';
  }
}

type ResultBlock = Extract<Extract<TranscriptRecord, { kind: 'user' }>['content'][number], { kind: 'tool-result' }>;

/** A result block as pairing takes it (the record's structured output only when it holds one result). */
export function rawResultOf(record: UserRecord, block: ResultBlock, resultCount: number): RawResult {
  return {
    toolUseId: block.toolUseId,
    uuid: record.uuid,
    timestamp: record.timestamp,
    loc: record.loc,
    isError: block.isError,
    content: block.content,
    toolUseResult: resultCount === 1 ? record.toolUseResult : undefined,
  };
}

export function newThread(key: string, agentId: string | undefined, file: number): ThreadFacts {
  return {
    key,
    agentId,
    file,
    lastOfMessage: new Map(),
    tally: new ThreadTally(),
    toolCalls: 0,
    first: { ms: Number.POSITIVE_INFINITY, at: undefined },
    last: { ms: Number.NEGATIVE_INFINITY, at: undefined },
    meta: undefined,
    open: [],
    from: undefined,
    through: -1,
    more: [],
  };
}
