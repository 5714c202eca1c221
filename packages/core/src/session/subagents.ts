import { isRecord, str } from '../internal/guards.js';
import { resultText } from '../model/content.js';
import { createSubagentId, type IsoTimestamp, timestampMs } from '../model/ids.js';
import type { RawCall, RawResult } from '../model/raw.js';
import type { TranscriptRecord } from '../model/record.js';
import type { Subagent } from '../model/session.js';
import { matchSubagents, type SubagentLinkKind, type SubagentLinks } from '../model/subagent-links.js';
import type { ToolCall } from '../model/tool-call.js';
import { isWarmup, ThreadTally, threadPromptOf } from './thread-tally.js';

/** A subagent's records before assembly. */
export interface SubagentThread {
  readonly key: string;
  readonly agentId: string | undefined;
  readonly file: string | undefined;
  readonly records: TranscriptRecord[];
  readonly meta: Readonly<Record<string, unknown>> | undefined;
}

/** What a subagent's header is made of, as the loaded and the streamed session find it. */
export interface SubagentParts {
  readonly thread: {
    readonly key: string;
    readonly agentId: string | undefined;
    readonly meta: Readonly<Record<string, unknown>> | undefined;
  };
  readonly file: string | undefined;
  /** The call that started it, with its input and result (its prompt and agent type when the thread says none). */
  readonly parentCall: ToolCall | undefined;
  readonly parentCallId: string | undefined;
  readonly linkedBy: SubagentLinkKind | undefined;
  /** The thread's own first prompt. */
  readonly prompt: string | undefined;
  readonly startedAt: IsoTimestamp | undefined;
  readonly endedAt: IsoTimestamp | undefined;
}

/**
 * A subagent as a session shows it, but its events: one rule for a loaded session and a streamed one (whose outputs
 * must be equal byte for byte). Its agent type is what the call's result says, else what its input asked, else its
 * meta file's.
 */
export function subagentHeadOf(parts: SubagentParts): Omit<Subagent, 'events'> {
  const { thread, parentCall } = parts;
  const input = isRecord(parentCall?.input) ? parentCall.input : {};
  const tur = isRecord(parentCall?.result?.toolUseResult) ? parentCall.result.toolUseResult : {};
  return {
    key: thread.key,
    agentId: thread.agentId ? createSubagentId(thread.agentId) : undefined,
    file: parts.file,
    parentCallId: parts.parentCallId,
    linkedBy: parts.linkedBy ?? 'unlinked',
    prompt: parts.prompt ?? str(input.prompt),
    agentType: str(tur.agentType) ?? str(input.subagent_type) ?? (thread.meta ? str(thread.meta.agentType) : undefined),
    meta: thread.meta,
    startedAt: parts.startedAt,
    endedAt: parts.endedAt,
  };
}

/**
 * How sidechain records written inside a main file (≤2.0.27: no agentId, each run starts at a new root) fall into
 * runs, one rule for every reader of them (a load, the stream's first pass, the index's header over stored rows): a
 * record joins the run of its parent; a record whose parent is not a sidechain record starts a new run, keyed
 * `sidechain:<its uuid>` (`sidechainKey`).
 */
export class SidechainRuns<Run> {
  private readonly byRecord = new Map<string, Run>();

  /**
   * The run of the next sidechain record, in file order: `id` and `parent` name records the same way (its uuid and
   * its parent's, or any one-to-one form of them; undefined for none), `start` makes the run it starts.
   */
  take(id: string | undefined, parent: string | undefined, start: () => Run): { run: Run; started: boolean } {
    const joined = parent === undefined ? undefined : this.byRecord.get(parent);
    const run = joined ?? start();
    if (id !== undefined) this.byRecord.set(id, run);
    return { run, started: joined === undefined };
  }

  /** The run of a record taken before, by its `id`. */
  of(id: string): Run | undefined {
    return this.byRecord.get(id);
  }
}

/** The key of the sidechain run a record with this uuid starts. */
export function sidechainKey(uuid: string): string {
  return `sidechain:${uuid}`;
}

/** Split the sidechain records of a main file into one thread per run (`SidechainRuns`). */
export function splitSidechains(records: readonly TranscriptRecord[], file: string): SubagentThread[] {
  const runs: SubagentThread[] = [];
  const split = new SidechainRuns<SubagentThread>();
  for (const record of records) {
    if (!('isSidechain' in record) || !record.isSidechain) continue;
    const { run, started } = split.take(record.uuid, record.parentUuid ?? undefined, () => ({
      key: sidechainKey(record.uuid),
      agentId: record.agentId,
      file,
      records: [],
      meta: undefined,
    }));
    if (started) runs.push(run);
    run.records.push(record);
  }
  return runs;
}

function namesAgent(result: RawResult | undefined): boolean {
  return result !== undefined && isRecord(result.toolUseResult) && str(result.toolUseResult.agentId) !== undefined;
}

/** The agentId a Task/Agent result names: `toolUseResult.agentId`, else `agentId: X` in the result text. */
export function agentIdOfResult(result: RawResult | undefined): string | undefined {
  if (!result) return undefined;
  if (isRecord(result.toolUseResult)) {
    const id = str(result.toolUseResult.agentId);
    if (id !== undefined) return id;
  }
  const match = /agentId: ([A-Za-z0-9_-]+)/.exec(resultText(result.content));
  return match?.[1];
}

/** The thread's first record that says what it was asked (`threadPromptOf`, `ThreadTally`'s rule). */
function firstPrompt(thread: SubagentThread): TranscriptRecord | undefined {
  return thread.records.find((r) => threadPromptOf(r) !== undefined);
}

/** The prompt that started a subagent (its first user record), when recorded. */
export function promptOf(thread: SubagentThread): string | undefined {
  const first = firstPrompt(thread);
  return first ? threadPromptOf(first) : undefined;
}

/**
 * Link subagent calls (Claude Task/Agent, Codex spawn_agent, Gemini invoke_agent) to subagent threads: by agentId
 * when the version records one (2.0.28+), else by the prompt text and time (`matchSubagents`). Returns callId →
 * thread key, and thread key → how it was linked.
 */
export function linkSubagents(
  calls: readonly RawCall[],
  results: ReadonlyMap<string, RawResult>,
  threads: readonly SubagentThread[],
  startsSubagent: (call: RawCall) => boolean,
): SubagentLinks {
  // Calls of a subagent tool (by the kind its adapter gives it), and any call whose structured result names the
  // agent it started.
  const agentCalls = calls.filter((c) => startsSubagent(c) || namesAgent(results.get(c.id)));
  return matchSubagents(agentCalls, threads, {
    callId: (call) => call.id,
    agentIdOf: (call) => agentIdOfResult(results.get(call.id)),
    promptOfCall: (call) => (isRecord(call.input) ? str(call.input.prompt) : undefined),
    callMs: (call) => timestampMs(call.timestamp),
    threadKey: (thread) => thread.key,
    threadAgentId: (thread) => thread.agentId,
    promptOfThread: promptOf,
    threadMs: (thread) => timestampMs(firstPrompt(thread)?.timestamp),
  });
}

/** Whether a thread is the client's cache warm-up, not a subagent (`isWarmup`); `started` when a call started it. */
export function isWarmupThread(thread: SubagentThread, started: boolean): boolean {
  const tally = new ThreadTally<undefined>();
  let toolCalls = 0;
  for (const record of thread.records) {
    tally.addRecord(record, undefined);
    if (record.kind === 'assistant') toolCalls += record.content.filter((b) => b.kind === 'tool-use').length;
  }
  return isWarmup({ started, tally, toolCalls });
}
