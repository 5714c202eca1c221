import type { DiscoveredFile, DiscoverOptions, Discovery } from '../io/discover.js';
import type { HeadlessStart } from '../io/headless.js';
import type { ListedFolder } from '../io/listed-folders.js';
import type { ReadEnd, ReadLinesOptions } from '../io/read-lines.js';
import { type AgentId, agentInfo } from '../model/agent.js';
import type { CallInput } from '../model/call-input.js';
import type { RawCall, RawResult, RecordEvent } from '../model/raw.js';
import type { ProgressRecord, TranscriptRecord } from '../model/record.js';
import type { Duration, ToolResult } from '../model/tool-call.js';
import type { DataKind } from '../model/typed-result.js';
import type { ResponseIds } from '../usage/response-key.js';

export type { AgentId } from '../model/agent.js';

/** What an agent's format allows, declared by its adapter; shared code reads these instead of the agent's id. */
export interface AgentCapabilities {
  /**
   * true: a changed file is only ever appended to, so reading resumes at the last offset (Claude Code, Codex);
   * false: any change re-reads the whole file and its session's rows are replaced (Gemini rewrites its session
   * document in place, or replaces entries by id).
   */
  readonly appendOnly: boolean;
  /**
   * true: each line decodes alone, so one record is read back from its byte offset without the lines before it
   * (Claude Code); false: a read that starts at an offset replays the file from its start (Codex needs the earlier
   * lines' model and token totals), or the file is one document (Gemini), so records are best read back in one pass.
   */
  readonly linesStandAlone: boolean;
  /**
   * Where subagent transcripts live: `files` in their own files (discovered with `role: 'subagent'`), `inline` in
   * the main file (records with `isSidechain`), `none` when the agent has no subagents.
   */
  readonly subagents: 'files' | 'inline' | 'none';
  /**
   * Whose ids a response's `messageId` is, so whether two sessions holding one id hold one response (usage counts it
   * once across sessions: `responseKeyOf`, `usage/response-key.ts`). `unique`: unique everywhere, and a resumed or
   * continued session copies it into its own file: the model's API issued it (Claude Code's `msg_…`, Qwen Code's
   * `response_id`) or the client made a UUID or a time-ordered id (Copilot CLI's, OpenCode's `msg_…`); `session`:
   * unique only within its session: the decoder made it (Codex's `<session>#response-<n>`, Aider's), or the writer
   * uses short ids (Gemini files whose messages are `m1`, `m2`…: two unrelated sessions can both hold `m2`).
   */
  readonly responseIds: ResponseIds;
}

/**
 * One agent's transcripts, read into the shared model. An adapter discovers its files, streams them as the
 * neutral `TranscriptRecord` union (user/assistant/system… records with text, thinking, tool_use and tool_result
 * blocks and `Usage`), and types each tool result onto the shared kinds (`TypedResult`, `core/model`). Everything
 * after that (pairing, sessions, the index, the server, the dashboard) is shared and never asks which agent it is.
 * Every adapter passes the conformance suite (`conformance.ts`). Adding an agent is one folder under
 * `core/src/adapters/` (its descriptor `agent.ts` loads this adapter) and its line in `registry.ts`.
 *
 * Parsing never throws on bad data: a bad line or document is an issue, the rest is read.
 */
export interface AgentAdapter {
  /** The id `--agent` takes; stored with every file and session. */
  readonly id: AgentId;
  /** The name shown to people ("Claude Code"). */
  readonly label: string;
  /**
   * How the agent's CLI resumes a session: these words followed by the session id (`['claude', '--resume']`); null
   * when it cannot resume one by id. The dashboard's "Resume" button copies them.
   */
  readonly resume: readonly string[] | null;
  readonly capabilities: AgentCapabilities;
  /**
   * The name of a session's main file when its id alone gives it (Claude Code's `<id>.jsonl`), which the issue of a
   * session found by its subagents' files alone names (`session/missing-main.ts`); absent when a main file's name holds
   * more than the id (a Codex rollout's time).
   */
  mainFileName?(sessionId: string): string;
  /** The agent's home folders on this machine (env and home dir passed in: core has no `process`). */
  defaultHomes(env: Readonly<Record<string, string | undefined>>, homeDir: string): readonly string[];
  /**
   * Whether a path is this agent's home, one of its folders or one of its transcript files. Never throws. Notes in
   * `folders` (when given) each folder it listed or looked into, with its mtime before: while they keep those mtimes
   * (and the files it read, their first lines), the answer stays the same.
   */
  recognizes(path: string, folders?: ListedFolder[]): Promise<boolean>;
  /**
   * The session id when a file's first JSON line starts this agent's headless output (a CI job's `--json` stream,
   * kept as an artifact), else undefined; absent when the agent writes none. Named files and the files directly in a
   * named folder are told apart by it (`io/headless.ts`), before any layout is looked at.
   */
  readonly headlessStart?: HeadlessStart;
  /**
   * Every transcript file under a root (a home, a folder inside one, or one file); each `DiscoveredFile` carries
   * `agent: this.id`. Problems with single files are issues; a root that does not exist throws `PathNotFoundError`.
   */
  discover(root: string, options?: DiscoverOptions): Promise<Discovery>;
  /**
   * Stream one file as records and issues, in bounded memory where the format allows. Append-only adapters
   * resume from `options.startOffset` and report where to resume in the returned `ReadEnd`; the others read the
   * whole file every time.
   */
  streamRecords(
    file: DiscoveredFile,
    onEvent: (event: RecordEvent) => void,
    options?: ReadLinesOptions,
  ): Promise<ReadEnd>;
  /** Type one tool result against its call, onto the shared result kinds. Never throws. */
  typeResult(call: RawCall, raw: RawResult): ToolResult;
  /**
   * A call's durations, each with its source. Optional: without it, the timestamp delta between call and result
   * (`timestampDurations`) is used.
   */
  durationsOf?(call: RawCall, raw: RawResult | undefined): readonly Duration[];
  /** The tool's current name (renamed tools share one), so statistics count a renamed tool once. */
  canonicalToolName(name: string): string;
  /**
   * The kind a tool's results are typed onto, from its canonical name, known before the result arrives (the
   * dashboard shows a running or failed call as its tool). Optional: without it such calls show generically.
   */
  kindOfTool?(canonicalName: string): DataKind | undefined;
  /**
   * A call's input under the shared names (`CallInput`), so screens never read an agent's argument names.
   * Optional: without it screens show the raw input as fields. `id`: the call's id, where it says who made the call
   * (a Codex script's calls). Never throws.
   */
  typeInput?(canonicalName: string, input: unknown, id?: string): CallInput;
  /**
   * The subagent's record a progress record holds a copy of, when the agent writes one there (Claude Code 2.1.x's
   * `agent_progress`), decoded as the subagent's own file would hold it. Optional: without it progress records hold
   * none. Whether the copy is the subagent's thread is the session's rule (`session/embedded.ts`): a copy of an agent
   * in `skip` (one with a file of its own) is left undecoded, as none. Never throws.
   */
  embeddedRecordOf?(record: ProgressRecord, skip?: ReadonlySet<string>): EmbeddedRecord | undefined;
}

/** A subagent's record written inside another record of its parent's file (`AgentAdapter.embeddedRecordOf`). */
export interface EmbeddedRecord {
  /** The subagent it belongs to, as its own file would be named (`DiscoveredFile.agentId`). */
  readonly agentId: string;
  readonly record: TranscriptRecord;
}

/** Declare an adapter with its type checked (the identity; `satisfies` without repeating the type). */
export function defineAdapter<T extends AgentAdapter>(adapter: T): T {
  return adapter;
}

/**
 * What an adapter says of an agent without its parser: the id, label and resume command of its descriptor,
 * and where the agent keeps its transcripts and how its folders are recognised. Each adapter folder's `homes.ts`
 * defines it (light to load: the CLI finds the default homes without loading a parser) and its adapter spreads it.
 */
export type AgentHomes = Pick<AgentAdapter, 'id' | 'label' | 'resume' | 'defaultHomes' | 'recognizes'>;

/** An agent's homes, with its id, label and resume command from its descriptor (`agentInfos`). */
export function defineHomes<K extends AgentId>(
  id: K,
  defaultHomes: AgentAdapter['defaultHomes'],
  recognizes: AgentAdapter['recognizes'],
): AgentHomes & { readonly id: K } {
  const { label, resume } = agentInfo(id);
  return { id, label, resume, defaultHomes, recognizes };
}
