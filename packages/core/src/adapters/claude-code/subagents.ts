import { isRecord, str } from '../../internal/guards.js';
import { resultText } from '../../model/content.js';
import { timestampMs } from '../../model/ids.js';
import type { RawCall, RawResult } from '../../model/raw.js';
import type { TranscriptRecord, UserRecord } from '../../model/record.js';
import { userText } from './classify-user.js';

/** A subagent's records before assembly. */
export interface SubagentThread {
  readonly key: string;
  readonly agentId: string | undefined;
  readonly file: string | undefined;
  readonly records: TranscriptRecord[];
  readonly meta: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Split the sidechain records written inside a main file (≤2.0.27: no agentId, each run starts at a new root)
 * into one thread per run. A record joins the run of its parent; a record whose parent is not a sidechain
 * record starts a new run.
 */
export function splitSidechains(records: readonly TranscriptRecord[], file: string): SubagentThread[] {
  const runs: SubagentThread[] = [];
  const runOf = new Map<string, SubagentThread>();
  for (const record of records) {
    if (!('isSidechain' in record) || !record.isSidechain) continue;
    const parent = record.parentUuid === null ? undefined : runOf.get(record.parentUuid);
    let run = parent;
    if (!run) {
      run = { key: `sidechain:${record.uuid}`, agentId: record.agentId, file, records: [], meta: undefined };
      runs.push(run);
    }
    run.records.push(record);
    runOf.set(record.uuid, run);
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

function firstPrompt(thread: SubagentThread): UserRecord | undefined {
  return thread.records.find((r): r is UserRecord => r.kind === 'user' && !r.isMeta);
}

/** The prompt that started a subagent (its first user record), when recorded. */
export function promptOf(thread: SubagentThread): string | undefined {
  const first = firstPrompt(thread);
  return first ? userText(first.content) : undefined;
}

/**
 * Link subagent calls (Claude Task/Agent, Codex spawn_agent, Gemini invoke_agent) to subagent threads: by agentId when the version records one (2.0.28+), else by the
 * prompt text and time (the earliest unlinked run whose prompt equals the call's prompt and that starts after
 * the call). Returns callId → thread key, and thread key → how it was linked.
 */
export function linkSubagents(
  calls: readonly RawCall[],
  results: ReadonlyMap<string, RawResult>,
  threads: readonly SubagentThread[],
  startsSubagent: (call: RawCall) => boolean,
): { callToThread: Map<string, string>; linkedBy: Map<string, 'agent-id' | 'prompt-match'> } {
  const callToThread = new Map<string, string>();
  const linkedBy = new Map<string, 'agent-id' | 'prompt-match'>();
  const byAgentId = new Map<string, SubagentThread>();
  for (const thread of threads) if (thread.agentId !== undefined) byAgentId.set(thread.agentId, thread);

  // Calls of a subagent tool (by the kind its adapter gives it), and any call whose structured result names the
  // agent it started.
  const agentCalls = calls.filter((c) => startsSubagent(c) || namesAgent(results.get(c.id)));
  for (const call of agentCalls) {
    const agentId = agentIdOfResult(results.get(call.id));
    const thread = agentId === undefined ? undefined : byAgentId.get(agentId);
    if (thread && !linkedBy.has(thread.key)) {
      callToThread.set(call.id, thread.key);
      linkedBy.set(thread.key, 'agent-id');
    }
  }
  for (const call of agentCalls) {
    if (callToThread.has(call.id)) continue;
    const prompt = isRecord(call.input) ? str(call.input.prompt) : undefined;
    if (prompt === undefined) continue;
    const callMs = timestampMs(call.timestamp) ?? Number.NEGATIVE_INFINITY;
    const candidate = threads
      .filter((t) => !linkedBy.has(t.key) && promptOf(t)?.trim() === prompt.trim())
      .map((t) => ({ t, ms: timestampMs(firstPrompt(t)?.timestamp) ?? Number.POSITIVE_INFINITY }))
      .filter(({ ms }) => ms >= callMs - 1000)
      .sort((a, b) => a.ms - b.ms)[0];
    if (candidate) {
      callToThread.set(call.id, candidate.t.key);
      linkedBy.set(candidate.t.key, 'prompt-match');
    }
  }
  return { callToThread, linkedBy };
}
