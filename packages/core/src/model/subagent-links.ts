/**
 * The one rule that links subagent calls to subagent runs, over any representation of them (parsed records in
 * `linkSubagents`, stored rows in the index's session header): by the agent id the call's result names, else by the
 * prompt and time (the earliest unlinked run whose prompt equals the call's prompt and that starts no more than a
 * second before the call).
 */

/** How a run was linked to its call. */
export type SubagentLinkKind = 'agent-id' | 'prompt-match';

/** What the rule reads of calls `C` and runs `T`. */
export interface SubagentLinkView<C, T> {
  readonly callId: (call: C) => string;
  /** The agent the call's result names. */
  readonly agentIdOf: (call: C) => string | undefined;
  /** The call's `prompt` input. */
  readonly promptOfCall: (call: C) => string | undefined;
  readonly callMs: (call: C) => number | undefined;
  readonly threadKey: (thread: T) => string;
  readonly threadAgentId: (thread: T) => string | undefined;
  /** The run's first user message (what it was asked). */
  readonly promptOfThread: (thread: T) => string | undefined;
  readonly threadMs: (thread: T) => number | undefined;
}

export interface SubagentLinks {
  /** Call id → run key. */
  readonly callToThread: Map<string, string>;
  /** Run key → how it was linked. */
  readonly linkedBy: Map<string, SubagentLinkKind>;
}

/** Link the calls that can start a subagent (`agentCalls`, in order) to runs (`threads`). */
export function matchSubagents<C, T>(
  agentCalls: readonly C[],
  threads: readonly T[],
  view: SubagentLinkView<C, T>,
): SubagentLinks {
  const callToThread = new Map<string, string>();
  const linkedBy = new Map<string, SubagentLinkKind>();
  if (threads.length === 0) return { callToThread, linkedBy };
  const byAgentId = new Map<string, T>();
  for (const thread of threads) {
    const id = view.threadAgentId(thread);
    if (id !== undefined) byAgentId.set(id, thread);
  }
  for (const call of agentCalls) {
    const agentId = view.agentIdOf(call);
    const thread = agentId === undefined ? undefined : byAgentId.get(agentId);
    if (thread !== undefined && !linkedBy.has(view.threadKey(thread))) {
      callToThread.set(view.callId(call), view.threadKey(thread));
      linkedBy.set(view.threadKey(thread), 'agent-id');
    }
  }
  for (const call of agentCalls) {
    if (callToThread.has(view.callId(call))) continue;
    const prompt = view.promptOfCall(call)?.trim();
    if (prompt === undefined) continue;
    const callMs = view.callMs(call) ?? Number.NEGATIVE_INFINITY;
    const candidate = threads
      .filter((t) => !linkedBy.has(view.threadKey(t)) && view.promptOfThread(t)?.trim() === prompt)
      .map((t) => ({ t, ms: view.threadMs(t) ?? Number.POSITIVE_INFINITY }))
      .filter(({ ms }) => ms >= callMs - 1000)
      .sort((a, b) => a.ms - b.ms)[0];
    if (candidate) {
      callToThread.set(view.callId(call), view.threadKey(candidate.t));
      linkedBy.set(view.threadKey(candidate.t), 'prompt-match');
    }
  }
  return { callToThread, linkedBy };
}
