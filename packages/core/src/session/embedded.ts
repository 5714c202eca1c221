import type { AgentAdapter, EmbeddedRecord } from '../agents/adapter.js';
import type { TranscriptRecord } from '../model/record.js';

/**
 * The one rule of when a subagent's records copied into its parent's file (`AgentAdapter.embeddedRecordOf`: Claude
 * Code 2.1.x's `agent_progress`) are that subagent's thread: only when the session has no file of that subagent (a
 * copied or partial home). Then each copy, once per uuid, in the order the files hold them, is a record of the thread
 * keyed by its agent id, which links to its call, pairs its calls and counts its responses as the subagent's file
 * would; the progress record that holds it stays as it is. When the subagent's file is there, the copies are nothing
 * more than progress records: nothing is counted twice. `loadSession` and `openSessionStream` (`SessionFacts`) read
 * every kept record of a session's files, in file order, through one `EmbeddedThreads`; the index reads each file
 * through one (its parse job names the agents with a file in the session when it is read) and stores the copies it
 * takes as rows of their agent (index/src/write/copy-rows.ts).
 */
export class EmbeddedThreads {
  private readonly seen = new Set<string>();
  /** The agent ids whose copies make a thread, in the order their first copy was met. */
  readonly agents: string[] = [];

  /**
   * `filed`: the agent ids of the session's subagent files; `taken`: the copies already taken (agent id and uuid)
   * when a read goes on where an earlier one stopped (the index reading a file's appended bytes).
   */
  constructor(
    private readonly adapter: Pick<AgentAdapter, 'embeddedRecordOf'>,
    private readonly filed: ReadonlySet<string>,
    taken: Iterable<readonly [agentId: string, uuid: string]> = [],
  ) {
    for (const [agentId, uuid] of taken) {
      this.seen.add(copyKey(agentId, uuid));
      if (!this.agents.includes(agentId)) this.agents.push(agentId);
    }
  }

  /** The subagent record this record holds when it is a record of its subagent's thread (its first copy). */
  take(record: TranscriptRecord): EmbeddedRecord | undefined {
    if (record.kind !== 'progress' || this.adapter.embeddedRecordOf === undefined) return undefined;
    // The copies of an agent with a file are not even decoded (a 2.1.x session holds one per subagent record).
    const embedded = this.adapter.embeddedRecordOf(record, this.filed);
    if (embedded === undefined || this.filed.has(embedded.agentId)) return undefined;
    // A record without a uuid is its holder's line's only: it is never met again.
    const uuid = 'uuid' in embedded.record ? embedded.record.uuid : `@${record.loc.line}`;
    const key = copyKey(embedded.agentId, uuid);
    if (this.seen.has(key)) return undefined;
    this.seen.add(key);
    if (!this.agents.includes(embedded.agentId)) this.agents.push(embedded.agentId);
    return embedded;
  }
}

const copyKey = (agentId: string, uuid: string) => `${agentId}\u0000${uuid}`;

/** The agent ids of a session's subagent files (`EmbeddedThreads`' `filed`). */
export function filedAgents(subagents: readonly { readonly agentId?: string | undefined }[]): Set<string> {
  return new Set(subagents.flatMap((s) => (s.agentId === undefined ? [] : [s.agentId])));
}
