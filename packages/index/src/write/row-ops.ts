/**
 * The row operations a parse worker sends the writer (import.ts): tuples whose first item is their code.
 * @module
 */
import type { FactValues } from './row-types.js';

/** Row operations, in the order the writer runs them; each is an array whose first item is its code. */
export const OP = {
  /** A record starts (counted): its tool inputs and outputs stored so far are forgotten. `[OP.begin]` */
  begin: 0,
  /** `[OP.issue, line, code, message]` */
  issue: 1,
  /** `[OP.record, line, kind_raw, uuid_raw, ts_text, ts_ms, cwd, version, git_branch, model, message_id,
   *  is_sidechain, is_synthetic, shown, input, output, cache_creation, cache_read, request_id, cache_1h,
   *  reasoning, request_ref, parent_raw, prompt_text, sig, extra_results, output_at_least, turns_unrecorded,
   *  copy_of?]`: `output_at_least` is core's `Usage.outputAtLeast`, `turns_unrecorded` its `Usage.turnsUnrecorded`; `extra_results` counts the
   *  result blocks without an id here; the writer adds those whose id the file already answered. `copy_of`: only on
   *  a subagent's record copied into this file (copy-rows.ts), at its holder's line plus `COPY_LINE`. */
  record: 2,
  /** `[OP.title, line, source, title, leaf_uuid, secret rules]` */
  title: 3,
  /** `[OP.request, line, id, ts_ms, agent_id]` */
  request: 4,
  /**
   * `[OP.result, tool_use_id, line, ts_text, ts_ms, offset]`: where the result is, not what it says (its content is
   * read back from the transcript when needed: call-payloads.ts).
   */
  result: 5,
  /** `[OP.call, tool_use_id, line, name, offset, ts_text, ts_ms, agent_id]`: its input is read back. */
  call: 6,
  /**
   * `[OP.doc, line, offset, part, ts_text, ts_ms, kind_raw, tool, call_id, agent_id, indexed text (UTF-8 bytes),
   * secret rules, kind]`: a tool input or output (`call_id` set) only when its call or result was stored by this record; a null
   * `tool` with a `call_id` is the call's name as stored.
   */
  doc: 7,
  /**
   * `[OP.fact, tool_use_id, call line, result line or null, FactValues]`: a call's fact as computed in a parse
   * worker from the file's first call and first result (call-fact.ts); stores nothing by itself.
   */
  fact: 8,
  /** A record of a type AgentDash does not know: not stored, but counted (it shows in the timeline). `[OP.unknown]` */
  unknown: 9,
  /** `[OP.hook, tool_use_id]`: a PreToolUse hook ran on the call (core's `preToolHookCallOf`). */
  hook: 10,
} as const;

type Ts = string | null;
type Ms = number | null;
/** What a row keeps of a uuid (`storedUuid`): its 16 bytes, the text as written, or none. */
export type StoredUuid = string | Uint8Array | null;

/** `[OP.begin]`: a record starts. */
export type BeginOp = readonly [op: typeof OP.begin];
export type IssueOp = readonly [op: typeof OP.issue, line: number, code: string, message: string];
/** The row of a record as `records` stores it, its repeated texts (`cwd` to `model`) as texts still. */
export type RecordRow = [
  op: typeof OP.record,
  line: number,
  kindRaw: string,
  uuidRaw: StoredUuid,
  tsText: Ts,
  tsMs: Ms,
  cwd: string | null,
  version: string | null,
  gitBranch: string | null,
  model: string | null,
  messageId: string | null,
  isSidechain: 0 | 1,
  isSynthetic: 0 | 1 | 2 | 3,
  shown: 0 | 1 | 2,
  inputTokens: number | null,
  outputTokens: number | null,
  cacheCreationTokens: number | null,
  cacheReadTokens: number | null,
  requestId: string | null,
  cache1hTokens: number | null,
  reasoningTokens: number | null,
  requestRef: string | null,
  parentRaw: StoredUuid,
  promptText: string | null,
  sig: string | null,
  extraResults: number | null,
  outputAtLeast: number | null,
  turnsUnrecorded: number | null,
  copyOf?: string,
];
export type RecordOp = Readonly<RecordRow>;
export type TitleOp = readonly [
  op: typeof OP.title,
  line: number,
  source: string,
  title: string,
  leafUuid: string | null,
  secretRules?: readonly string[],
];
export type RequestOp = readonly [
  op: typeof OP.request,
  line: number,
  id: string,
  tsMs: number,
  agentId: string | null,
];
export type ResultOp = readonly [
  op: typeof OP.result,
  toolUseId: string,
  line: number,
  tsText: Ts,
  tsMs: Ms,
  offset: number,
];
export type CallOp = readonly [
  op: typeof OP.call,
  toolUseId: string,
  line: number,
  name: string,
  offset: number,
  tsText: Ts,
  tsMs: Ms,
  agentId: string | null,
];
export type DocOp = readonly [
  op: typeof OP.doc,
  line: number,
  offset: number,
  part: number,
  tsText: Ts,
  tsMs: Ms,
  kindRaw: string,
  tool: string | null,
  callId: string | null,
  agentId: string | null,
  text: Uint8Array,
  secretRules: readonly string[],
  kind: string,
];
export type FactOp = readonly [
  op: typeof OP.fact,
  toolUseId: string,
  callLine: number,
  resultLine: number | null,
  values: FactValues,
];
export type UnknownOp = readonly [op: typeof OP.unknown];
export type HookOp = readonly [op: typeof OP.hook, toolUseId: string];

/** One row operation: a tuple whose first item is its code (`OP`). */
export type Op =
  | BeginOp
  | IssueOp
  | RecordOp
  | TitleOp
  | RequestOp
  | ResultOp
  | CallOp
  | DocOp
  | FactOp
  | UnknownOp
  | HookOp;
