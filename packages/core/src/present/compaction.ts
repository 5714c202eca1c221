/**
 * The run a client makes to write a compaction's summary. Claude Code (2.1 and later) writes it beside the
 * subagents, `subagents/agent-acompact-<id>.jsonl`: its prompt asks for "a detailed summary of the conversation so
 * far", its answer is the summary the main timeline continues from, after its "Context compacted" boundary. It is no
 * subagent any call started: shown as what it is (its usage, a real request's, is the session's as any subagent's).
 * @module
 */

/** Whether a thread of this agent id is a compaction's summarising run, not a subagent. */
export function isCompactionRun(agentId: string | null | undefined): boolean {
  return agentId?.startsWith('acompact-') === true;
}

/** What such a run is, in a sentence's words. */
export const COMPACTION_RUN = 'the request that summarised the conversation for a compaction';
