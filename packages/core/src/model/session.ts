import type { AgentId } from './agent.js';
import type { ContentBlock, ImageValue } from './content.js';
import type { IsoTimestamp, RecordUuid, SessionId, SubagentId } from './ids.js';
import type { ParseIssue, SourceLocation } from './issue.js';
import type {
  AttachmentRecord,
  ProgressRecord,
  SystemRecord,
  TranscriptRecord,
  UnknownRecord,
  Usage,
  UserRecord,
} from './record.js';
import type { SubagentLinkKind } from './subagent-links.js';
import type { ToolCall, ToolResult } from './tool-call.js';

/** One block of an assembled assistant message. Tool calls carry their nested result. */
export type AssistantItem =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'thinking'; readonly thinking: string; readonly redacted: boolean }
  | ToolCall
  | { readonly kind: 'other-block'; readonly block: ContentBlock };

/** Why a user record is not shown as a prompt (it stays reachable). */
export const hiddenReasons = [
  'meta',
  'compact-summary',
  'command',
  'command-output',
  'interrupt',
  'system-reminder',
  'task-notification',
  'tool-result-extra',
  'command-aside',
  /** The person's words sent beside a tool's result, while the agent worked. */
  'interjection',
  /** An image a tool gave the model as a message of its own (Codex's view_image before 0.169): no prompt. */
  'tool-image',
] as const;
export type HiddenReason = (typeof hiddenReasons)[number];

export type TimelineEvent =
  | {
      readonly kind: 'prompt';
      readonly uuid: RecordUuid;
      readonly parentUuid: RecordUuid | null;
      readonly timestamp: IsoTimestamp | undefined;
      readonly text: string;
      readonly images: readonly ImageValue[];
      /** Its other blocks, when it has any: a document (a PDF attached), a block of a type AgentDash does not know. */
      readonly others?: readonly ContentBlock[];
      readonly loc: SourceLocation;
    }
  | {
      readonly kind: 'assistant';
      readonly messageId: string;
      readonly uuids: readonly RecordUuid[];
      readonly parentUuid: RecordUuid | null;
      readonly timestamp: IsoTimestamp | undefined;
      readonly model: string | undefined;
      readonly items: readonly AssistantItem[];
      readonly usage: Usage | undefined;
      readonly stopReason: string | undefined;
      readonly isApiError: boolean;
      readonly isSynthetic: boolean;
      /** The id of the `api-request` record (a `side` event) of the request this response answers (2.1.x). */
      readonly requestRef?: string | undefined;
      /** The latest timestamp of its block records (`timestamp` is the first's): when the response ended. */
      readonly lastTimestamp?: IsoTimestamp | undefined;
      readonly loc: SourceLocation;
    }
  | {
      readonly kind: 'hidden';
      readonly reason: HiddenReason;
      readonly text: string;
      readonly record: UserRecord;
    }
  | { readonly kind: 'system'; readonly record: SystemRecord }
  | { readonly kind: 'attachment'; readonly record: AttachmentRecord }
  | { readonly kind: 'progress'; readonly record: ProgressRecord }
  | { readonly kind: 'side'; readonly record: Exclude<TranscriptRecord, { kind: 'unknown' } | UserLike> }
  | { readonly kind: 'unknown'; readonly record: UnknownRecord };

type UserLike = { kind: 'user' | 'assistant' | 'system' | 'attachment' | 'progress' };

export interface UsageTotals {
  readonly responses: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheCreationInputTokens: number;
  readonly cacheReadInputTokens: number;
  /** The part of `outputTokens` spent on reasoning (Codex reasoning, Gemini thoughts); 0 for Claude Code. */
  readonly reasoningOutputTokens: number;
}

export interface SessionFileInfo {
  readonly path: string;
  readonly role: 'main' | 'subagent';
  readonly agentId: SubagentId | undefined;
}

/** A subagent run: its own timeline, linked to the Task/Agent call that started it when that can be known. */
export interface Subagent {
  /** Stable key within the session: the agentId, or `sidechain:<root uuid>` for in-file sidechains. */
  readonly key: string;
  readonly agentId: SubagentId | undefined;
  readonly file: string | undefined;
  /** The Task/Agent call that started it. */
  readonly parentCallId: string | undefined;
  readonly linkedBy: SubagentLinkKind | 'unlinked';
  readonly prompt: string | undefined;
  readonly agentType: string | undefined;
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  readonly events: readonly TimelineEvent[];
  readonly startedAt: IsoTimestamp | undefined;
  readonly endedAt: IsoTimestamp | undefined;
}

export interface Session {
  readonly id: SessionId;
  /** The agent that wrote the session's files. */
  readonly agent: AgentId;
  readonly files: readonly SessionFileInfo[];
  /** Real project path, from the records' `cwd`. */
  readonly projectPath: string | undefined;
  /** The folder under projects/ holding the session file. */
  readonly projectDir: string;
  readonly title: string | undefined;
  readonly titleSource: 'custom-title' | 'ai-title' | 'summary' | 'first-prompt' | undefined;
  readonly startedAt: IsoTimestamp | undefined;
  readonly endedAt: IsoTimestamp | undefined;
  readonly versions: readonly string[];
  readonly models: readonly string[];
  readonly gitBranch: string | undefined;
  /** Main-thread timeline. */
  readonly events: readonly TimelineEvent[];
  readonly subagents: readonly Subagent[];
  /** Every call of the session, subagents' included, in file order. */
  readonly calls: readonly ToolCall[];
  /** Results whose call is nowhere in the session. */
  readonly orphanResults: readonly ToolResult[];
  readonly issues: readonly ParseIssue[];
  /** Usage per model, each API response counted once (by message id), synthetic messages skipped. */
  readonly usageByModel: Readonly<Record<string, UsageTotals>>;
  readonly leafUuid: RecordUuid | undefined;
  readonly counts: SessionCounts;
}

/** What a session holds, counted (its header's `counts`). */
export interface SessionCounts {
  readonly records: number;
  readonly duplicateRecords: number;
  readonly unknownRecords: number;
  readonly prompts: number;
  readonly assistantMessages: number;
  readonly toolCalls: number;
  /**
   * Errored calls, the expected ones included (`expectedErrors` of them): as the sessions list's `errors`. Unlike
   * `SubagentSummary.errors`, which leaves them out; the names are kept for the `--json` and HTTP contracts.
   */
  readonly errors: number;
  readonly expectedErrors: number;
  /**
   * Requests to the model the agent gave up on (`requestFailureOf`: an API error ended the turn), and failed attempts
   * it retried; not among `errors` (calls').
   */
  readonly failedRequests: number;
  readonly retriedRequests: number;
  /**
   * Warm-up requests: threads the client sent only to pre-warm its subagents' prompt caches (`isWarmup`). Not
   * subagents; their usage is in the session's.
   */
  readonly warmups: number;
}

/** A subagent run as a session's header lists it (the dashboard's subagent list). */
export interface SubagentSummary {
  readonly key: string;
  readonly agentId: string | null;
  readonly parentCallId: string | null;
  readonly linkedBy: Subagent['linkedBy'];
  readonly prompt: string | null;
  readonly agentType: string | null;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  /** Events the timeline shows by default. */
  readonly events: number;
  readonly toolCalls: number;
  /**
   * Errored calls inside the subagent (and the subagents it started) that were not expected: the expected ones are
   * `expectedErrors` alone, not among these (unlike `SessionCounts.errors`, which counts both).
   */
  readonly errors: number;
  readonly expectedErrors: number;
}
