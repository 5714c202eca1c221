/**
 * The row values that cross from a parse worker to the writer, as labelled tuples: a call's fact (`FactValues`, tied
 * to `FACT_COLUMNS`) and what each of the writer's inserts binds (tied to the row operations of record-rows.ts where
 * `Writer.apply` spreads them), so that a column added on one side only fails to compile.
 */
import type { FACT_COLUMNS } from '../schema/schema-derived.js';

/**
 * A call's fact columns as values in `FACT_COLUMNS` order (call-fact.ts): how a parse worker posts it (serialized, an
 * object repeats its 13 keys for every call) and how the writer binds it. `FactValuesMatch` below fails to compile
 * when this and `FACT_COLUMNS` (with `FactColumns`) disagree in order, count or type.
 */
export type FactValues = readonly [
  canonicalName: string,
  hasResult: 0 | 1,
  isError: 0 | 1,
  category: string | null,
  severity: string | null,
  errorMessage: string | null,
  exitCode: number | null,
  durationMs: number | null,
  summary: string,
  taskId: string | null,
  agentRef: string | null,
  subagentPrompt: string | null,
  subagentType: string | null,
  touched: string | null,
];

/** The fact columns that depend on the call's typing. */
export interface FactColumns {
  readonly canonical_name: string;
  readonly has_result: 0 | 1;
  readonly is_error: 0 | 1;
  readonly category: string | null;
  readonly severity: string | null;
  readonly error_message: string | null;
  readonly exit_code: number | null;
  readonly duration_ms: number | null;
  readonly summary: string;
  /** The background shell or async agent the result started (the header's `shells`), if any. */
  readonly task_id: string | null;
  /** The subagent the result names, for the calls that can start one (`linkSubagents` in core). */
  readonly agent_ref: string | null;
  /** For a call that starts a subagent or names one: the prompt its input gives (the header links threads by it). */
  readonly subagent_prompt: string | null;
  /** For such a call: the agent type its result names, else its input's (the header's subagent type). */
  readonly subagent_type: string | null;
  /** The files the call touched (core's `filesTouchedBy`) as JSON `[[path, changed 0/1], …]`; null: none. */
  readonly touched: string | null;
}

/** `FACT_COLUMNS`' columns, each with its type in `FactColumns`, as a tuple. */
type Typed<C extends readonly (keyof FactColumns)[]> = {
  readonly [K in keyof C]: C[K] extends keyof FactColumns ? FactColumns[C[K]] : never;
};
type FactValuesByColumn = Typed<typeof FACT_COLUMNS>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only while `FactValues` is `FACT_COLUMNS` typed by `FactColumns`. */
export const FactValuesMatch: Same<FactValues, FactValuesByColumn> = true;

type Ts = string | null;
type Ms = number | null;
type Uuid = string | Uint8Array | null;
type Text = string | null;
type Num = number | null;
/**
 * What each insert binds, in its SQL's column order: the file's id, then a row operation's values (record-rows.ts).
 * Written beside the SQL, so that a column an operation gains or loses, and its statement does not, fails to compile.
 */
export type IssueBind = [fileId: number, line: number, code: string, message: string];
export type TitleBind = [fileId: number, line: number, source: string, title: string, leafUuid: Text];
export type RequestBind = [fileId: number, line: number, id: string, tsMs: number, agentId: Text];
export type ResultBind = [fileId: number, toolUseId: string, line: number, tsText: Ts, tsMs: Ms, offset: number];
export type CallBind = [
  fileId: number,
  toolUseId: string,
  line: number,
  name: string,
  offset: number,
  tsText: Ts,
  tsMs: Ms,
  agentId: Text,
];
export type DocBind = [
  fileId: number,
  line: number,
  offset: number,
  part: number,
  tsText: Ts,
  tsMs: Ms,
  kindRaw: string,
  tool: Text,
  callId: Text,
  agentId: Text,
];
export type RecordBind = [
  fileId: number,
  line: number,
  kindRaw: string,
  uuidRaw: Uuid,
  tsText: Ts,
  tsMs: Ms,
  cwdRef: Num,
  versionRef: Num,
  gitBranchRef: Num,
  modelRef: Num,
  messageId: Text,
  isSidechain: 0 | 1,
  isSynthetic: 0 | 1 | 2 | 3,
  shown: 0 | 1 | 2,
  inputTokens: Num,
  outputTokens: Num,
  cacheCreationTokens: Num,
  cacheReadTokens: Num,
  requestId: Text,
  cache1hTokens: Num,
  reasoningTokens: Num,
  requestRef: Text,
  parentRaw: Uuid,
  promptText: Text,
  sig: Text,
  extraResults: Num,
  outputAtLeast: Num,
  turnsUnrecorded: Num,
  copyOf: Text,
];
